/** [answer as a model writes it, reference, correct?] for the contains scorer (whole words). */
export const CONTAINS_CASES: [string, string, boolean][] = [
  ["The capital of Canada is Ottawa.", "Ottawa", true],
  ["The capital is **Ottawa**.", "Ottawa", true],
  ["Answer: Ottawa", "Ottawa", true],
  ["It's Toronto, not Ottawa... no wait, Toronto.", "Ottawa", true], // a mention is enough
  ["Answer: Toronto\n\nThe capital of Canada is Ottawa.", "Ottawa", false], // the answer line wins
  ["<think>Africa</think>Asia", "Africa", false],
  ["<think>Ottawa</think>Toronto", "Ottawa", false],
  ["", "Ottawa", false],
  ["Ottawa's population is about a million.", "Ottawa", false], // the apostrophe is dropped: "ottawas"
  ["It is not Paris; the capital of France is Lyon.", "Paris", true], // negation is not read
  ["Not Paris.", "Paris", true],
  ["Parisian cafés are famous, but the capital is Lyon.", "Paris", false],
  ["I believe the answer is paris, France.", "Paris", true],
  ["Mars is the Red Planet.", "Mars", true],
  ["Marshmallows are red sometimes.", "Mars", false],
  ["Answer: Pacific Ocean", "Pacific Ocean", true],
  ["The largest is the pacific  ocean", "Pacific Ocean", true],
  ["The Pacific is the largest.", "Pacific Ocean", false],
  ["Water freezes at 32 °F.", "32", true],
  ["Water freezes at 320 K-ish.", "32", false],
  ["My phone has 32GB of storage.", "32", false], // a number inside a word
  ["A day has 1440 minutes.", "1440", true],
  ["A day has 1,440 minutes.", "1440", false], // "1 440" after normalisation
  ["A day has 1,440 minutes.", "1,440", true],
  ["Apollo 11 landed in July 1969.", "1969", true],
  ["We met in room 11B.", "11", false],
  ["Answer: 3.5 kg", "3.5", true],
  ["Answer: 13.5 kg", "3.5", false],
  ["Answer: Africa", "Africa", true],
  ["Montréal is the largest city in Québec.", "Montreal", true],
  ["The chemical symbol is “Fe”.", "Iron|Fe", true],
  ["It's mostly iron oxide.", "Iron|Fe", true],
  ["Ironically, it's copper.", "Iron|Fe", false],
  ["Answer: the Beatles", "The Beatles", true],
  ["It was the Beatles, in 1963.", "The Beatles", true],
  ["George Orwell wrote it under a pen name.", "Orwell", true],
  ["Orwellian themes run through it.", "Orwell", false],
  ["Vitamin A deficiency causes night blindness.", "Vitamin A", true],
  ["Answer: Vitamin C", "Vitamin A", false], // a letter "A" is not an article
  ["NILE", "nile", true],
  ["The Nile (about 6,650 km) is the longest river.", "Nile", true],
  ["\\boxed{Nile}", "Nile", true],
  ["Amazon? No, it's the Nile.", "Amazon", true],
  ["Answer: Mount Everest, 8,849 m", "Everest", true],
];
