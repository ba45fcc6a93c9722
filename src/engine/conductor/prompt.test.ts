import { describe, expect, it } from "vitest";
import { WorkerSchema } from "../schema/worker.ts";
import type { Pool } from "../schema/worker.ts";
import {
  DEFAULT_OPENING,
  DEFAULT_SYSTEM_PROMPT,
  DEFAULT_TEMPLATE,
  buildConductorMessages,
  fillTemplate,
  foldedOpening,
  templateProblems,
  workerLines,
} from "./prompt.ts";

const pool: Pool = [
  WorkerSchema.parse({ id: "a", name: "Claude Sonnet 4", note: "strong at code" }),
  WorkerSchema.parse({ id: "b", name: "Gemma 3 27B" }),
  WorkerSchema.parse({ id: "c", name: "Conductor", kind: "conductor", note: "plans a sub-team" }),
];

const question = "What is 17 * 23?";

describe("workerLines", () => {
  it("lists anonymous ids by default for the trained Conductor", () => {
    expect(workerLines(pool, false)).toBe("Model id 0\nModel id 1\nModel id 2");
  });

  it("adds names and notes when named, the Conductor itself included", () => {
    expect(workerLines(pool, true)).toBe(
      [
        "Model id 0: Claude Sonnet 4 — strong at code",
        "Model id 1: Gemma 3 27B",
        "Model id 2: Conductor — plans a sub-team",
      ].join("\n"),
    );
  });

  it("keeps each worker on one line", () => {
    const messy = [WorkerSchema.parse({ id: "x", name: "GPT\n5", note: "  fast\n\nand cheap " })];
    expect(workerLines(messy, true)).toBe("Model id 0: GPT 5 — fast and cheap");
  });
});

describe("fillTemplate", () => {
  it("fills every placeholder of the default template", () => {
    const text = fillTemplate(DEFAULT_TEMPLATE, { question, workers: "Model id 0", maxSteps: 4 });
    expect(text).not.toMatch(/\{\{/);
    expect(text).toContain("at most 4 routing steps");
    expect(text).toContain(`USER QUESTION:\n${question}\nEND OF USER QUESTION`);
    expect(text.endsWith("AVAILABLE LANGUAGE MODELS:\nModel id 0")).toBe(true);
  });

  it("leaves unknown placeholders alone and accepts spaces inside braces", () => {
    expect(
      fillTemplate("{{ question }} {{other}} {{workers}} {{max_steps}}", {
        question: "Q",
        workers: "W",
        maxSteps: 3,
      }),
    ).toBe("Q {{other}} W 3");
  });

  it("does not fill placeholders that arrive inside the question", () => {
    const text = fillTemplate("{{question}}\n{{workers}}", {
      question: "Explain {{workers}} and $& literally",
      workers: "Model id 0",
      maxSteps: 5,
    });
    expect(text).toBe("Explain {{workers}} and $& literally\nModel id 0");
  });

  it("appends the standard blocks for a template missing question and workers", () => {
    const text = fillTemplate("Plan up to {{max_steps}} steps.", {
      question: "Q?",
      workers: "Model id 0\nModel id 1",
      maxSteps: 2,
    });
    expect(text).toBe(
      "Plan up to 2 steps.\n\nUSER QUESTION:\nQ?\nEND OF USER QUESTION\n\nAVAILABLE LANGUAGE MODELS:\nModel id 0\nModel id 1",
    );
  });
});

describe("templateProblems", () => {
  it("is empty for the default template", () => {
    expect(templateProblems(DEFAULT_TEMPLATE)).toEqual([]);
  });

  it("lists every missing placeholder", () => {
    expect(templateProblems("Only {{question}} here")).toEqual(["{{max_steps}}", "{{workers}}"]);
    expect(templateProblems("")).toEqual(["{{max_steps}}", "{{question}}", "{{workers}}"]);
  });
});

describe("DEFAULT_TEMPLATE", () => {
  it("states the protocol, the output contract and three examples", () => {
    expect(DEFAULT_TEMPLATE).toContain("model_id = [...]\nsubtasks = [...]\naccess_list = [...]");
    expect(DEFAULT_TEMPLATE).toContain('access_list = [[], [], ["all"]]');
    expect(DEFAULT_TEMPLATE).toContain('access_list = [[], [0], ["all"]]');
    expect(DEFAULT_TEMPLATE).toContain("access_list = [[]]");
    expect(DEFAULT_TEMPLATE.match(/^EXAMPLE \d$/gm)).toHaveLength(3);
    expect(DEFAULT_TEMPLATE.indexOf("USER QUESTION:")).toBeLessThan(
      DEFAULT_TEMPLATE.indexOf("AVAILABLE LANGUAGE MODELS:"),
    );
  });
});

describe("buildConductorMessages", () => {
  const base = { question, pool, maxSteps: 5, namedWorkers: false };

  it("gives three messages ending in the opening when the backend continues it", () => {
    const messages = buildConductorMessages({ ...base, continuesAssistant: true });
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    expect(messages[0]?.content).toBe(DEFAULT_SYSTEM_PROMPT);
    expect(messages[1]?.content).toContain("Model id 2");
    expect(messages[1]?.content).not.toContain("Claude");
    expect(messages[1]?.content).not.toContain(DEFAULT_OPENING);
    expect(messages[2]?.content).toBe(DEFAULT_OPENING);
  });

  it("folds the opening into the user message otherwise", () => {
    const messages = buildConductorMessages({ ...base, continuesAssistant: false });
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[1]?.content.endsWith(`\n\n${foldedOpening(DEFAULT_OPENING)}`)).toBe(true);
    expect(messages[1]?.content).toContain(DEFAULT_OPENING);
  });

  it("uses a custom template, system prompt, opening and named workers", () => {
    const messages = buildConductorMessages({
      ...base,
      namedWorkers: true,
      maxSteps: 3,
      template: "N={{max_steps}}",
      systemPrompt: "SYS",
      opening: "Thinking:",
      continuesAssistant: true,
    });
    expect(messages).toEqual([
      { role: "system", content: "SYS" },
      {
        role: "user",
        content: `N=3\n\nUSER QUESTION:\n${question}\nEND OF USER QUESTION\n\nAVAILABLE LANGUAGE MODELS:\n${workerLines(pool, true)}`,
      },
      { role: "assistant", content: "Thinking:" },
    ]);
  });

  it("sends no opening at all when it is empty", () => {
    const messages = buildConductorMessages({ ...base, opening: "", continuesAssistant: false });
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[1]?.content).not.toContain("Begin your reply");
  });
});
