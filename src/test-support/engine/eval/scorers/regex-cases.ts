/** [answer as a model writes it, pattern (the reference), correct?, scorer options]; flags default to "i". */
export const REGEX_CASES: [string, string, boolean, { pattern?: string; flags?: string }?][] = [
  ["Answer: 6 sides", "^6\\b", true],
  ["Answer: six", "^(6|six)\\b", true],
  ["Answer: 60", "^6\\b", false],
  ["Answer: 6", "^6$", true],
  ["Answer: 6.", "^6$", false], // trailing period
  ["Answer: 6.", "^6\\.?$", true],
  ["**Answer:** 6", "^6$", true],
  ["Final answer: **6**", "^6$", true],
  ["Answer:   42  ", "^42$", true],
  ["The answer is 6.", "^6", false], // no answer line: the whole reply starts with "The"
  ["The answer is 6.", "\\b6\\b", true],
  ["The answer is 16.", "\\b6\\b", false],
  ["Mandarin Chinese is spoken by most.", "mandarin", true],
  ["Spanish", "mandarin", false],
  ["Answer: paris", "^Paris$", true], // case-insensitive by default
  ["Answer: paris", "^Paris$", false, { flags: "" }],
  ["Step 1: add.\nStep 2: carry.\nResult: 6", "^Result: 6$", false], // ^ and $ span the reply
  ["Step 1: add.\nStep 2: carry.\nResult: 6", "^Result: 6$", true, { flags: "m" }],
  ["Here you go:\nMANDARIN", "^mandarin$", false, { flags: "m" }],
  ["Here you go:\nMANDARIN", "^mandarin$", true, { flags: "mi" }],
  ["Begin the proof.\nThat is the end.", "begin.+end", false], // . does not cross lines
  ["Begin the proof.\nThat is the end.", "begin.+end", true, { flags: "is" }],
  ["<think>42</think>The answer is 41.", "42", false],
  ["\\boxed{x = 3}", "^x\\s*=\\s*3$", true],
  ["<answer>O(n log n)</answer>", "^O\\(n\\s*log\\s*n\\)$", true],
  ["Answer: O(n^2)", "^O\\(n\\s*log\\s*n\\)$", false],
  ["Answer: 1,440", "^1,?440$", true],
  ["Answer: 1440", "^1,?440$", true],
  ["Answer: 1.440", "^1,?440$", false],
  ["Answer: “yes”", '^"?yes"?$', false], // curly quotes are not normalised for patterns
  ["Answer: “yes”", '^["“]?yes["”]?$', true],
  ["Answer: Yes, definitely.", "^yes\\b", true],
  ["Answer: Yesterday", "^yes\\b", false],
  ["Answer: 2024-03-15", "^\\d{4}-\\d{2}-\\d{2}$", true],
  ["Answer: 15/03/2024", "^\\d{4}-\\d{2}-\\d{2}$", false],
  ["Answer: colour", "^colou?r$", true],
  ["Answer: Jane Austen", "austen$", true],
  ["Answer: Austen, Jane", "austen$", false],
  ["Answer: Mercury", "merc(ury)?", true],
  ["Answer: Toronto\nAnswer: Ottawa", "^ottawa$", true],
  ["Answer: Ottawa\nAnswer: Toronto", "^ottawa$", false],
  ["It is -40 °C at night.", "-40\\s*°?C\\b", true],
  ["The capital is Ottawa.", "", true, { pattern: "\\bottawa\\b" }], // the scorer's own pattern
  ["The capital is Ottawan.", "ottawa", false, { pattern: "\\bottawa\\b" }],
];
