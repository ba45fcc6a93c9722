// cleanAnswer and replaceCommand (math-latex.ts) on their own: each clean-up rule with the text it
// changes and the result worked out by hand, so that weakening a rule turns its row red.
import { describe, expect, it } from "vitest";
import { cleanAnswer, replaceCommand } from "./math-latex.ts";

describe("cleanAnswer", () => {
  it.each([
    [String.raw`$\frac{1}{2}$`, String.raw`\frac{1}{2}`],
    [String.raw`\(3\)`, String.raw`3`],
    [String.raw`\[3\]`, String.raw`3`],
    [String.raw`\\frac{1}{2}`, String.raw`\frac{1}{2}`],
    [String.raw`\textbf{5}`, String.raw`5`],
    [String.raw`\text{odd}`, String.raw`odd`],
    [String.raw`1 \text{ and } 2`, String.raw`1, 2`],
    [String.raw`x \text{, or } y`, String.raw`x, y`],
    [String.raw`\mathrm{e}`, String.raw`e`],
    [String.raw`\mathrm{E}`, String.raw`E`],
    [String.raw`5\mathrm{cm}`, String.raw`5`],
    [String.raw`\operatorname{lcm}(2,3)`, String.raw`\operatorname{lcm}(2,3)`],
    [String.raw`\dfrac{1}{2}`, String.raw`\frac{1}{2}`],
    [String.raw`\tfrac12`, String.raw`\frac12`],
    [String.raw`\left(1,2\right)`, String.raw`(1,2)`],
    [String.raw`\bigl(1\bigr)`, String.raw`(1)`],
    [String.raw`\Big(1\Big)`, String.raw`(1)`],
    [String.raw`1,\!000`, String.raw`1000`],
    [String.raw`\begin{array}{cc}1&2\end{array}`, String.raw`\begin{pmatrix}1&2\end{pmatrix}`],
    [String.raw`\angle ABC`, String.raw`ABC`],
    [String.raw`\begin{pmatrix}1\\2\\\end{pmatrix}`, String.raw`\begin{pmatrix}1\\2\end{pmatrix}`],
    [
      String.raw`\left[\begin{array}{c}1\end{array}\right]`,
      String.raw`\begin{pmatrix}1\end{pmatrix}`,
    ],
    [String.raw`1\,000`, String.raw`1000`],
    [String.raw`a\;b`, String.raw`a b`],
    [String.raw`a\quad b`, String.raw`a b`],
    [String.raw`a~b`, String.raw`a b`],
    [String.raw`\displaystyle\frac{1}{2}`, String.raw`\frac{1}{2}`],
    [String.raw`\mbox{5}`, String.raw`5`],
    [String.raw`\textit{x}`, String.raw`x`],
    [String.raw`\textrm{x}`, String.raw`x`],
    [String.raw`\mathbf{v}`, String.raw`v`],
    [String.raw`\textnormal{7}`, String.raw`7`],
    [String.raw`30^\circ`, String.raw`30`],
    [String.raw`30^{\circ}`, String.raw`30`],
    [String.raw`30°`, String.raw`30`],
    [String.raw`30\degree`, String.raw`30`],
    [String.raw`\frac{\sqrt3}{3} \approx 0.577`, String.raw`\frac{\sqrt3}{3}`],
    [String.raw`x \approx 0.577`, String.raw`0.577`],
    [String.raw`\approx 5`, String.raw`5`],
    [String.raw`x_1 ≈ 2`, String.raw`2`],
    [String.raw`\$5`, String.raw`5`],
    [String.raw`€5`, String.raw`5`],
    [String.raw`£5`, String.raw`5`],
    [String.raw`¥5`, String.raw`5`],
    [String.raw`5 dollars`, String.raw`5`],
    [String.raw`10 km/h`, String.raw`10`],
    [String.raw`3 m^2`, String.raw`3`],
    [String.raw`4 cm²`, String.raw`4`],
    [String.raw`5 square feet`, String.raw`5`],
    [String.raw`17 apples`, String.raw`17`],
    [String.raw`17 any text`, String.raw`17`],
    [String.raw`1000,99`, String.raw`1000.99`],
    [String.raw`0,111`, String.raw`0.111`],
    [String.raw`1,000`, String.raw`1000`],
    [String.raw`14{,}916`, String.raw`14916`],
    [String.raw`1{,}000{,}000`, String.raw`1000000`],
    [String.raw`7,425,000`, String.raw`7425000`],
    [String.raw`1 000`, String.raw`1000`],
    [String.raw`32, 349`, String.raw`32, 349`],
    [String.raw`(12,102)`, String.raw`(12,102)`],
    [String.raw`1.5,2`, String.raw`1.5,2`],
    [String.raw`sqrt(3)`, String.raw`\sqrt{3}`],
    [String.raw`sqrt(sqrt(16))`, String.raw`\sqrt{\sqrt{16}}`],
    [String.raw`2**(1/4)`, String.raw`2^{1/4}`],
    [String.raw`2^(1+(2))`, String.raw`2^{1+(2)}`],
    [String.raw`pi`, String.raw`\pi`],
    [String.raw`\pi`, String.raw`\pi`],
    [String.raw`spin`, String.raw`spin`],
    [String.raw`inf`, String.raw`\infty`],
    [String.raw`inferior`, String.raw`inferior`],
    [String.raw`x<=3`, String.raw`x\le 3`],
    [String.raw`x>=3`, String.raw`x\ge 3`],
    [String.raw`x!=3`, String.raw`x\ne 3`],
    [String.raw`.5`, String.raw`0.5`],
    [String.raw`(11,7) or (7,11)`, String.raw`(11,7), (7,11)`],
    [String.raw`−3`, String.raw`-3`],
    ["5\\", "5"],
    [String.raw`  3.  `, String.raw`3`],
    [String.raw`3,`, String.raw`3`],
    [String.raw`2 \pm 1`, String.raw`2 \pm 1`],
    // delimiters anywhere, whitespace around them, $$ display math
    [String.raw`x = \(5\)`, String.raw`x = 5`],
    [String.raw`\[5\] and \[6\]`, String.raw`5, 6`],
    [String.raw`  \(3\)  `, String.raw`3`],
    // a matrix in brackets, spaced, whole or assigned; a pair of matrices stays a pair
    [
      String.raw`$$\left[\begin{array}{c}1\end{array}\right]$$`,
      String.raw`\begin{pmatrix}1\end{pmatrix}`,
    ],
    [
      String.raw`[ \begin{array}{cc}1 & 2\end{array} ]`,
      String.raw`\begin{pmatrix}1 & 2\end{pmatrix}`,
    ],
    [
      String.raw`A = \left[\begin{array}{c}1\end{array}\right]`,
      String.raw`A = \begin{pmatrix}1\end{pmatrix}`,
    ],
    [
      String.raw`(\begin{pmatrix}1\end{pmatrix}, \begin{pmatrix}2\end{pmatrix})`,
      String.raw`(\begin{pmatrix}1\end{pmatrix}, \begin{pmatrix}2\end{pmatrix})`,
    ],
    // Euler's number and the imaginary unit in \mathrm stay letters of the expression
    [String.raw`5\mathrm{e}`, String.raw`5e`],
    [String.raw`2\mathrm{ e }`, String.raw`2e`],
    [String.raw`\mathrm{i}`, String.raw`i`],
    // ASCII powers and roots with more after them, unclosed, several
    [String.raw`2^(1/4) + 1`, String.raw`2^{1/4} + 1`],
    [String.raw`2^(3`, String.raw`2^{3}`],
    [String.raw`sqrt(2) + 1`, String.raw`\sqrt{2} + 1`],
    [String.raw`sqrt(2`, String.raw`\sqrt{2}`],
    [String.raw`sqrt(2)*sqrt(3)`, String.raw`\sqrt{2}*\sqrt{3}`],
    [String.raw`(-inf, 0)`, String.raw`(-\infty, 0)`],
    // degrees however spaced
    [String.raw`30^{ \circ }`, String.raw`30`],
    [String.raw`30^ \circ`, String.raw`30`],
    // \approx: after a name (x, x_{12}) the value; after an expression the expression
    [String.raw`2\pi \approx 6.28`, String.raw`2\pi`],
    [String.raw`e^2 \approx 7.39`, String.raw`e^2`],
    [String.raw`x_{12} \approx 3`, String.raw`3`],
    [String.raw`x\approx 2`, String.raw`2`],
    // thousands separators and decimal commas
    [String.raw`32,\! 349`, String.raw`32349`],
    [String.raw`10,000`, String.raw`10000`],
    [String.raw`12,000`, String.raw`12000`],
    [String.raw`1000,99 euros`, String.raw`1000.99`],
    [String.raw`14 {, }916`, String.raw`14916`],
    [String.raw`x = 1,000`, String.raw`x = 1000`],
    [String.raw`1,000 people`, String.raw`1000`],
    [String.raw`1,000 + 1`, String.raw`1000 + 1`],
    [String.raw`(1,2,000)`, String.raw`(1,2,000)`],
    // units after each number of a pair
    [String.raw`(3 km, 4 km)`, String.raw`(3, 4)`],
    // "and"/"or" between answers, spaced or not
    [String.raw`1, or 2`, String.raw`1, 2`],
    [String.raw`(1,2)or(3,4)`, String.raw`(1,2), (3,4)`],
    // a number followed by words is the number; words between numbers leave the text as it is
    [String.raw`7 is the answer`, String.raw`7`],
    [String.raw`-3 is the answer`, String.raw`-3`],
    [String.raw`12.5 is the answer`, String.raw`12.5`],
    [String.raw`5! is the answer`, String.raw`5!`],
    [String.raw`12 I think`, String.raw`12`],
    [String.raw`2 cats and 3 dogs`, String.raw`2 cats, 3 dogs`],
    // trailing punctuation and spaces
    [String.raw`3 .`, String.raw`3`],
    [String.raw`3...`, String.raw`3`],
  ])("%s is %s", (raw, latex) => {
    expect(cleanAnswer(raw)).toEqual({ latex, percent: false });
  });

  it.each([[String.raw`50\%`], [String.raw`50%`], [String.raw`50 percent`], [String.raw`12 pct`]])(
    "%s is 50 or 12 with a percent sign",
    (raw) => {
      expect(cleanAnswer(raw).percent).toBe(true);
      expect(cleanAnswer(raw).latex).toMatch(/^(50|12)$/);
    },
  );

  it("keeps a percent sign off answers without one, however often it is asked", () => {
    for (let i = 0; i < 3; i++) expect(cleanAnswer("50%").percent).toBe(true);
    expect(cleanAnswer("50").percent).toBe(false);
  });
});

describe("replaceCommand", () => {
  const box = (a: string) => `[${a}]`;
  it.each([
    [String.raw`a \text{b} c`, String.raw`a [b] c`],
    [String.raw`\text{a{b}c}`, String.raw`[a{b}c]`],
    [String.raw`\text {b}`, String.raw`[b]`],
    [String.raw`\textbf{b}`, String.raw`\textbf{b}`],
    [String.raw`\text b`, String.raw`\text b`],
    [String.raw`\text{abc`, String.raw`[abc]`],
    [String.raw`\text{a}\text{b}`, String.raw`[a][b]`],
    [String.raw`\textbf{x} \text{y}`, String.raw`\textbf{x} [y]`],
    [String.raw`\text x \text{y}`, String.raw`\text x [y]`],
  ])("%s becomes %s", (text, want) => {
    expect(replaceCommand(text, "\\text", box)).toBe(want);
  });

  it("continues after its replacement, and stops after 100 commands", () => {
    expect(replaceCommand(String.raw`\text{a}`, "\\text", (a) => String.raw`\text{${a}}!`)).toBe(
      String.raw`\text{a}!`,
    );
    const many = String.raw`\text{a}`.repeat(101);
    expect(replaceCommand(many, "\\text", (a) => a)).toBe("a".repeat(100) + String.raw`\text{a}`);
  });
});
