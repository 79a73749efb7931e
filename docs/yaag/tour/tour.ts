// A tour of yaag that needs no model: run it against the stand-in with
// standin.json (docs/yaag/authoring.md, "trying it without a model").
import { defineAgent, defineProgram } from "@yaag/runtime";
import { Type } from "typebox";

const planner = defineAgent({
  name: "planner",
  description: "plans a task in steps",
  systemPrompt: "You plan small programming tasks.",
});

const helper = defineAgent({
  name: "helper",
  description: "asks the person when unsure",
  systemPrompt: "You ask the person when a choice is theirs.",
  canAskUser: true, // gives it the request_user_input tool
});

export default defineProgram({
  name: "tour",
  description: "plan a task, then ask the person where to start",
  input: Type.Object({ task: Type.String() }),
  output: Type.Object({ steps: Type.Array(Type.String()), first: Type.String() }),
  agents: [planner, helper],
  async run(ctx) {
    ctx.log(`planning: ${ctx.input.task}`);
    const p = await ctx.spawn(planner);
    // An Ask with an outputSchema: data is the reply's JSON, checked.
    const plan = await p.ask(`Plan the task "${ctx.input.task}" in steps.`, {
      outputSchema: Type.Object({ steps: Type.Array(Type.String()) }),
    });
    console.log("the plan has", plan.data.steps.length, "steps:", plan.data.steps);
    const h = await ctx.spawn(helper);
    // The helper asks the person: the Run stops here with a Checkpoint,
    // and goes on when the answer is given.
    const first = await h.ask(`Which step comes first: ${plan.data.steps.join(" or ")}? Ask the person.`);
    return { steps: plan.data.steps, first: first.text };
  },
});
