/**
 * [model answer, reference, correct?] for the math scorer, version 2: each row guards one rule
 * (the comment says which), with its near miss beside it so that dropping the rule fails a row.
 */
export const MATH_V2_CASES: [string, string, boolean][] = [
  // LaTeX against plain text, numerically and symbolically
  ["\\boxed{\\frac{1}{3}}", "1/3", true],
  ["\\boxed{\\frac{1}{3}}", "0.333333", true], // rounded to 6 places, as Math-Verify
  ["\\boxed{\\frac{1}{3}}", "0.33", false],
  ["\\boxed{(x+1)^2}", "x^2+2x+1", true],
  ["\\boxed{(x+1)^2}", "x^2+2x+2", false],
  ["\\boxed{918\\frac12}", "918.5", true], // a mixed number
  ["\\boxed{918\\frac12}", "918", false],
  ["\\boxed{2\\sqrt{2}}", "\\sqrt{8}", true],
  ["\\boxed{\\sqrt{\\sqrt{2}}}", "2**(1/4)", true],
  // tuples in order, bare lists as sets, intervals with their brackets
  ["\\boxed{(1, 2)}", "(1,2)", true],
  ["\\boxed{(2, 1)}", "(1,2)", false],
  ["\\boxed{3, 1, 2}", "1, 2, 3", true],
  ["\\boxed{3, 1}", "1, 2, 3", false],
  ["\\boxed{[0, 1)}", "[0,1)", true],
  ["\\boxed{(0, 1]}", "[0,1)", false],
  ["\\boxed{\\{3, 1, 2\\}}", "\\{1,2,3\\}", true],
  ["\\boxed{(-\\infty, 3] \\cup (5, \\infty)}", "(5,\\infty) \\cup (-\\infty,3]", true],
  [
    "\\boxed{\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}}",
    "\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}",
    true,
  ],
  [
    "\\boxed{\\begin{pmatrix} 1 & 2 \\\\ 3 & 5 \\end{pmatrix}}",
    "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
    false,
  ],
  // equations and inequalities
  ["\\boxed{x = 3}", "3", true],
  ["\\boxed{x = 4}", "3", false],
  ["\\boxed{2x - 4 = 0}", "x - 2 = 0", true], // the same equation up to a factor
  ["\\boxed{x + y = 0}", "x - y = 0", false], // both end in = 0 and still differ
  ["\\boxed{x \\geq 5}", "5 \\le x", true],
  ["\\boxed{x > 5}", "x \\ge 5", false],
  ["\\boxed{0 < x < 1}", "(0, 1)", true],
  // units, degrees, text, approximations, separators, percentages
  ["The angle is $\\boxed{30^\\circ}$.", "30", true],
  ["\\boxed{30°}", "30", true],
  ["\\boxed{125\\textnormal{ miles}}", "125", true],
  ["\\boxed{\\textbf{17}}", "17", true],
  ["\\boxed{\\frac{\\sqrt3}{3} \\approx 0.577}", "\\frac{\\sqrt{3}}{3}", true],
  ["\\boxed{7,425,000}", "7425000", true],
  ["\\boxed{32, 349}", "32349", false], // a space after the comma: a list, not thousands
  ["\\boxed{(12,102)}", "(12, 102)", true], // a pair, not twelve thousand
  ["\\boxed{28\\%}", "28", true],
  ["\\boxed{33.5\\%}", "0.335", true],
  ["Final Answer: The final answer is $\\frac{3}{4}$. I hope it is correct.", "0.75", true],
  ["Final Answer: The final answer is $\\frac{3}{4}$. I hope it is correct.", "0.7", false],
  // no confident misreads
  ["I could not find it.", "2", false],
  ["AZYUK2A", "2", false],
  ["x lies in [0,1) I think", "1", false], // the interval, not the 1 inside it
  ["x lies in [0,1) I think", "[0,1)", true],
  ["the value is \\frac{1}{3} or so", "3", false], // the fraction, not its denominator
  ["the value is \\frac{1}{3} or so", "1/3", true],
  ["so the pair (3, 4) works", "4", false],
  // several boxes: the last, or boxes joined by a comma / and / or as one set
  ["\\boxed{10} and then \\boxed{42}", "42", true],
  ["\\boxed{10} and then \\boxed{42}", "\\{10, 42\\}", false],
  ["\\boxed{1}, \\boxed{2} and \\boxed{3}", "1, 2, 3", true],
  ["$x = \\boxed{-2}$ \\quad \\text{and} \\quad $\\boxed{1}$", "\\{1, -2\\}", true],
  // a full solution as the reference is reduced to its last box
  ["Answer: 5", "We add the two.\nSo there are $\\boxed{5}$ apples.", true],
  ["Answer: 4", "We add the two.\nSo there are $\\boxed{5}$ apples.", false],
  // other languages
  ["Réponse: Janeth aura encore 220 $ à payer d'ici 12 mois.", "220", true],
  ["答案：每份应该是 (\\frac{2}{5}) 吨。", "2/5", true],
];
