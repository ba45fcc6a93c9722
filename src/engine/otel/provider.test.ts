import { describe, expect, it } from "vitest";
import { tracesUrl } from "./endpoint.ts";
import { providerOf, serverOf } from "./provider.ts";

describe("providerOf: gen_ai.provider.name from a base URL", () => {
  it.each([
    ["https://api.openai.com/v1", "openai"],
    ["https://api.anthropic.com/v1/", "anthropic"],
    ["https://generativelanguage.googleapis.com/v1beta/openai/", "gcp.gemini"],
    ["https://us-central1-aiplatform.googleapis.com/v1/projects/p", "gcp.vertex_ai"],
    ["https://my-res.openai.azure.com/openai", "azure.ai.openai"],
    ["https://api.groq.com/openai/v1", "groq"],
    ["https://api.deepseek.com", "deepseek"],
    ["https://api.mistral.ai/v1", "mistral_ai"],
    ["https://api.x.ai/v1", "x_ai"],
    ["https://openrouter.ai/api/v1", "openrouter"],
    ["https://api.together.xyz/v1", "together_ai"],
    ["http://localhost:11434/v1", "ollama"],
    ["http://127.0.0.1:1234/v1", "lm_studio"],
    ["http://localhost:8000/v1", "openai_compatible"],
    ["https://openai.example.com/v1", "openai_compatible"],
    ["not a url", "openai_compatible"],
  ])("%s is %s", (url, name) => {
    expect(providerOf(url)).toBe(name);
  });

  it("gives the server address and port, with the scheme's default port", () => {
    expect(serverOf("https://api.openai.com/v1")).toEqual({ address: "api.openai.com", port: 443 });
    expect(serverOf("http://10.0.0.5:8000/v1")).toEqual({ address: "10.0.0.5", port: 8000 });
  });
});

describe("tracesUrl", () => {
  it("adds /v1/traces to a bare origin and keeps any other path", () => {
    expect(tracesUrl("http://localhost:4318")).toEqual({
      ok: true,
      url: "http://localhost:4318/v1/traces",
    });
    expect(tracesUrl(" http://localhost:6006/v1/traces ")).toEqual({
      ok: true,
      url: "http://localhost:6006/v1/traces",
    });
    const langfuse = "https://cloud.langfuse.com/api/public/otel/v1/traces";
    expect(tracesUrl(langfuse)).toEqual({ ok: true, url: langfuse });
  });

  it("refuses what is not an http(s) URL, and credentials in the URL", () => {
    expect(tracesUrl("localhost:4318").ok).toBe(false);
    expect(tracesUrl("file:///tmp/x").ok).toBe(false);
    expect(tracesUrl("https://pk:sk@cloud.langfuse.com").ok).toBe(false);
  });
});
