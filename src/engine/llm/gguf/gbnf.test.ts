import { describe, expect, it } from "vitest";
import { buildPlanGrammar } from "../../conductor/grammar.ts";
import { toGbnf } from "./gbnf.ts";

describe("toGbnf", () => {
  it("renames rules to GBNF's letters, digits and dashes, and keeps literals and classes", () => {
    const ebnf = 'root ::= plan_1 "a_b" [_x] # a_comment\nplan_1 ::= "\\"_" more_2_0?\n';
    expect(toGbnf(ebnf)).toBe(
      'root ::= plan-1 "a_b" [_x] # a_comment\nplan-1 ::= "\\"_" more-2-0?\n',
    );
  });

  it("leaves no underscore in a rule name of the plan grammar", () => {
    const gbnf = toGbnf(buildPlanGrammar({ workers: 4, maxSteps: 5, round: 1, opening: "Let_me" }));
    const names = [...gbnf.matchAll(/^([^\s#]+) ::=/gm)].map((m) => m[1]);
    expect(names).toContain("access-4");
    expect(names.every((n) => /^[a-zA-Z0-9-]+$/.test(n!))).toBe(true);
    // Literals keep their underscores: the plan's list names and the opening.
    expect(gbnf).toContain('"model_id = ["');
    expect(gbnf).toContain('"Let_me"');
  });
});
