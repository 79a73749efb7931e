// Declarations of @yaag/runtime, the module yaag programs import.
// Written by `yaag setup-workspace` into .yaag/types/@yaag/runtime/.
import type { TSchema, Static } from "typebox";

/** Every error the runtime gives a program. `code` says which. */
export class YaagError extends Error {
  readonly code:
    | "ASK_LIMIT" | "ASK_TIMEOUT" | "ASK_INVALID_OUTPUT" | "ASK_STALLED" | "ASK_FAILED"
    | "SPAWN_FAILED" | "AGENT_KILLED"
    | "PROFILE_REQUIRED" | "ROLE_NOT_FOUND" | "PROFILE_NOT_FOUND"
    | "CATALOG_ENTRY_NOT_FOUND" | "CATALOG_ENTRY_AMBIGUOUS" | "CATALOG_ENTRY_UNRESOLVABLE"
    | "OPTIONS_CONFLICT" | "SCHEMA_UNSUPPORTED" | "DESCRIBE_ONLY" | "RUN_STOPPED";
  readonly cause?: unknown;
}

/** A system prompt whose render markers yaag expands at spawn. */
export interface SystemPrompt { readonly text: string }

/** What a spawned Agent is: a hermetic Boxmaker loop session. */
export interface AgentOptions {
  /** A name for messages and the Agent's key; "agent" when absent. */
  name?: string;
  description?: string;
  /** A plain string (no markers) or a defineSystemPrompt(...). */
  systemPrompt?: string | SystemPrompt;
  /** The tools the Agent may call (Boxmaker's tool names); none when absent. */
  tools?: string[];
  disallowedTools?: string[];
  /** Offer request_user_input. */
  canAskUser?: boolean;
  /** A model or a list: on a failure classified auth, the next is tried. */
  model?: string | string[];
  /** Give the Agent the owner's memory block (off: an Agent is hermetic). */
  memory?: boolean;
}

export interface AgentDefinition extends AgentOptions { readonly name: string }

/** What a Profile binds a Role to: a model and other spawn options. */
export type RoleBinding = Pick<AgentOptions, "model" | "tools" | "disallowedTools" | "memory">;

export interface ProfileView {
  /** The Profile's id. */
  readonly id: string;
  /** The Role's binding; an undeclared Role is ROLE_NOT_FOUND. */
  role(name: string): RoleBinding;
}

export interface ProfiledDefinition {
  readonly name: string;
  readonly factory: (profile: ProfileView) => AgentDefinition;
}

export interface AskOptions<S extends TSchema | undefined = undefined> {
  /** The answer is the JSON the last assistant text holds, checked against it. */
  outputSchema?: S;
  maxTurns?: number;
  maxToolCalls?: number;
  maxDurationMs?: number;
  /** One last turn without tools when a budget trips, instead of ASK_LIMIT. */
  wrapUpPrompt?: string;
  /** Aborts the turn and kills the Agent (ASK_TIMEOUT). */
  timeoutMs?: number;
  /** Silence from loopd past this is ASK_STALLED. */
  stallMs?: number;
}

export interface AskResult<T = unknown> {
  /** The last assistant text. */
  text: string;
  /** With outputSchema: the JSON the text holds, validated. */
  data: T;
  usage: { turns: number; toolCalls: number; model: string };
}

export interface Agent {
  /** A<k>: k is the spawn ordinal in call order. */
  readonly key: string;
  readonly name: string;
  readonly session: string;
  ask<S extends TSchema | undefined = undefined>(prompt: string, options?: AskOptions<S>):
    Promise<AskResult<S extends TSchema ? Static<S> : undefined>>;
}

export interface RunContext<I = unknown> {
  readonly input: I;
  /** The Profile of this Run, or null. */
  readonly profile: string | null;
  spawn(definition: AgentDefinition | ProfiledDefinition | AgentOptions): Promise<Agent>;
  /** Markers expanded inside defineSystemPrompt only. */
  renderInput(): string;
  renderTools(): string;
  renderProfile(): string;
  /** A line on the Run's event stream. */
  log(message: string): void;
}

export interface Profile {
  description?: string;
  roles: Record<string, RoleBinding>;
}

export interface ProgramDefinition<I extends TSchema | undefined, O extends TSchema | undefined> {
  name: string;
  description?: string;
  input?: I;
  output?: O;
  profiles?: Record<string, Profile>;
  defaultProfile?: string;
  agents?: (AgentDefinition | ProfiledDefinition)[];
  run(ctx: RunContext<I extends TSchema ? Static<I> : unknown>):
    Promise<O extends TSchema ? Static<O> : unknown>;
}

export function defineProgram<I extends TSchema | undefined = undefined, O extends TSchema | undefined = undefined>(
  program: ProgramDefinition<I, O>): ProgramDefinition<I, O>;
export function defineAgent<D extends AgentDefinition>(definition: D): D;
export function defineProfiled(name: string, factory: (profile: ProfileView) => AgentDefinition): ProfiledDefinition;
export function defineSystemPrompt(...parts: string[]): SystemPrompt;
/** yaag's own instructions for an Agent, as a marker. */
export function yaagSystemPrompt(): string;
export function isAgentDefinition(v: unknown): v is AgentDefinition;
export function isProfiledDefinition(v: unknown): v is ProfiledDefinition;

export interface CatalogScope {
  /** Reads the scope's Registry File and imports the entry's export. */
  importAgent(name: string): Promise<AgentDefinition | ProfiledDefinition>;
}
export const $yaag: { readonly project: CatalogScope; readonly global: CatalogScope };
declare global {
  const $yaag: { readonly project: CatalogScope; readonly global: CatalogScope };
}
