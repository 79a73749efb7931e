// @yaag/runtime: the module yaag programs import. It is embedded in the
// boxmaker binary and bundled into every program; the work is done by the
// host functions of the Run (globalThis.__yaagHost), written in Go.
const host = globalThis.__yaagHost;

const AGENT = Symbol.for("yaag.agentDefinition");
const PROFILED = Symbol.for("yaag.profiledDefinition");
const PROGRAM = Symbol.for("yaag.program");
const PROMPT = Symbol.for("yaag.systemPrompt");

export class YaagError extends Error {
  constructor(code, message, cause) {
    super(message);
    this.name = "YaagError";
    this.code = code;
    if (cause !== undefined) this.cause = cause;
  }
}
host.setErrorClass(YaagError);

export function defineAgent(definition) {
  host.checkDefinition(definition);
  return Object.freeze({ ...definition, [AGENT]: true });
}

export function defineProfiled(name, factory) {
  if (typeof factory !== "function") {
    throw new TypeError("defineProfiled(name, factory): factory must be a function of the Profile");
  }
  return Object.freeze({ name: String(name), factory, [PROFILED]: true });
}

export function defineSystemPrompt(...parts) {
  const text = parts.map((p) => String(p)).join("");
  return Object.freeze({ text, [PROMPT]: true });
}

export function yaagSystemPrompt() {
  return host.marker("yaag");
}

export function defineProgram(program) {
  if (program === null || typeof program !== "object") {
    throw new TypeError("defineProgram(program): program must be an object");
  }
  if (typeof program.run !== "function") {
    throw new TypeError("defineProgram(program): program.run must be a function");
  }
  return Object.freeze({ ...program, [PROGRAM]: true });
}

export function isAgentDefinition(v) {
  return v !== null && typeof v === "object" && v[AGENT] === true;
}

export function isProfiledDefinition(v) {
  return v !== null && typeof v === "object" && v[PROFILED] === true;
}

export const $yaag = Object.freeze({
  project: Object.freeze({ importAgent: (name) => host.importAgent("project", name) }),
  global: Object.freeze({ importAgent: (name) => host.importAgent("global", name) }),
});
globalThis.$yaag = $yaag;
