/**
 * Every case of the agreement suite on which our verdict differs from the reference grader's,
 * with the argument for it. The agreement test fails when a disagreement is missing from this
 * list, and when a listed one agrees again (strike it off then).
 */
export const DISAGREEMENTS: Record<string, string> = {
  "Math-Verify/test_all.py:132":
    "Math-Verify's test runs with LaTeX extraction only; an inline `$ \\n 9 \\n $` split over lines is not a LaTeX span, so it finds nothing. We also read plain numbers (as Math-Verify's default config, which adds ExprExtractionConfig, does), so we read the 9 after 'Answer'.",
  "Math-Verify/test_all.py:133":
    "As test_all.py:132, with `\\( \\n 9 \\n \\)`: the test switches Math-Verify's number extraction off; ours is always on, and the reply does say 9 after 'Answer'.",
  "Math-Verify/test_all.py:452":
    "The reference `1 = \\zzz = x = 0` uses `\\zzz`, which is no LaTeX command; sympy's parser makes it a symbol, ours refuses it. An unreadable reference gives 'reference unreadable' (wrong), never a guess.",
  "Math-Verify/test_all.py:907":
    "Math-Verify is asymmetric here: it accepts the answer `x \\in [-2,7]` against the reference `-2 \\le x \\le 7` (test_all.py:894) but not the reverse. Both say the same thing, so we accept both directions.",
  "Math-Verify/test_boxed.py:8":
    "The reference `\\boxed{35 cm} ++++++ \\boxed{4}` is read by Math-Verify as the set {35, 4}. We join boxes only across nothing, a comma, 'and' or 'or' (Math-Verify's own joiners): '++++++' does not say two boxes are one answer, so the reference is its last box, 4.",
  "Math-Verify/test_numina_cases.py:24":
    "`1 \\leq |z| \\leq 3/2` against `z \\in [-3/2,-1] \\cup [1,3/2]`: the same set of reals, but seeing it means solving the inequality for z. We compare inequalities and intervals by structure, not by solving: a false negative we accept rather than a solver's guess.",
  "Math-Verify/test_numina_cases.py:54":
    "The reference `p=5,q=2;p=7,q=2` against `(5,2),(7,2)`: reading the flat list as pairs needs grouping by repeated names, which we do not do (we read four assignments). A false negative.",
  "Math-Verify/test_numina_cases.py:121":
    "The reference has an unclosed `\\\\boxed{W(n) = 1 \\\\text{ and } W(n) = -1` and the answer `W(x)=1orW(x)=-1` is neither LaTeX nor spaced prose; we read the answer's last number, -1, against the set {1, -1}. A false negative on malformed input.",
  "Math-Verify/test_open_thoughts.py:134":
    "The answer boxes two values in two separate `\\( \\)` spans, each after a name (`y_1 =`, `y_2 =`). Between the boxes stands '\\) and \\( y_2 =', more than a joiner, so we take the last box alone and find it differs from the pair in the reference. A false negative.",
  "Math-Verify/test_yujianll.py:28":
    "Math-Verify's test says `1 - \\frac{1}{\\mathrm{e}}` equals `1 + \\frac{1}{\\mathrm{e}}`: they are 0.632 and 1.368. Agreeing would be a false positive no user wants; we say different.",
  "math/math_equivalence_test.py:12":
    "hendrycks `is_equiv` compares strings, so the reordered list `4, 10, -2` is wrong. Math-Verify, whose rule the issue asks for, reads an unbracketed comma list as a set, so order does not matter; we follow Math-Verify.",
  "math/math_equivalence_test.py:47":
    "As math_equivalence_test.py:12: `4, .1, 2` against `0.1, 4, 2` is the same set; hendrycks compares strings, we follow Math-Verify's set rule for bare lists.",
  "simple-evals/common.py:103":
    "simple-evals' equality checker is an LLM told to allow only trivial simplifications, so its prompt marks `3245/5` and `649` as not equivalent while saying they are equal. A deterministic grader that compares values has no reason to refuse an exact equality; we say equal.",
};
