/**
 * `gen_ai.provider.name` from an endpoint's base URL: the semantic conventions' well-known values
 * where the host is a provider's own API, a short custom value for common local servers, and
 * `openai` otherwise only for api.openai.com. Every worker speaks the OpenAI chat API, so an
 * unknown host is named by what it is known to be: an OpenAI-compatible endpoint.
 */

const HOSTS: readonly (readonly [RegExp, string])[] = [
  [/(^|\.)api\.openai\.com$/, "openai"],
  [/\.openai\.azure\.com$/, "azure.ai.openai"],
  [/\.services\.ai\.azure\.com$/, "azure.ai.inference"],
  [/(^|\.)api\.anthropic\.com$/, "anthropic"],
  [/(^|\.)generativelanguage\.googleapis\.com$/, "gcp.gemini"],
  [/(^|[.-])aiplatform\.googleapis\.com$/, "gcp.vertex_ai"],
  [/(^|\.)api\.groq\.com$/, "groq"],
  [/(^|\.)api\.deepseek\.com$/, "deepseek"],
  [/(^|\.)api\.mistral\.ai$/, "mistral_ai"],
  [/(^|\.)api\.x\.ai$/, "x_ai"],
  [/(^|\.)api\.perplexity\.ai$/, "perplexity"],
  [/(^|\.)api\.cohere\.(ai|com)$/, "cohere"],
  [/(^|\.)bedrock-runtime\.[a-z0-9-]+\.amazonaws\.com$/, "aws.bedrock"],
  [/(^|\.)openrouter\.ai$/, "openrouter"],
  [/(^|\.)api\.together\.(xyz|ai)$/, "together_ai"],
];

/** Local servers by their default port, where the host is this machine. */
const LOCAL_PORTS: Readonly<Record<string, string>> = {
  "11434": "ollama",
  "1234": "lm_studio",
};

/** For an endpoint that is not a known provider's API. */
export const OPENAI_COMPATIBLE = "openai_compatible";

/** The provider a base URL belongs to; see the module comment. */
export function providerOf(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return OPENAI_COMPATIBLE;
  }
  const host = url.hostname.toLowerCase();
  for (const [re, name] of HOSTS) if (re.test(host)) return name;
  const local = host === "localhost" || host === "127.0.0.1" || host === "[::1]";
  if (local && LOCAL_PORTS[url.port]) return LOCAL_PORTS[url.port]!;
  return OPENAI_COMPATIBLE;
}

/** `server.address` and `server.port` of a base URL, when it parses. */
export function serverOf(baseURL: string): { address: string; port: number } | null {
  try {
    const url = new URL(baseURL);
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    return { address: url.hostname, port };
  } catch {
    return null;
  }
}
