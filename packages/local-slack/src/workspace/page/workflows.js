// Workflow Builder on the local page: "Run workflow" with one of the app's custom steps and typed
// inputs (the workspace sends the app `function_executed`), and each run with how it completed.
import { h } from './blocks.js';

/** What the form has typed, by step and input, kept across refreshes. */
const typed = new Map();
/** The people picked in the form, by step and input, each with who picked them: another person running the workflow starts from themself. */
const picked = new Map();

export function renderWorkflows(container, data, run) {
  const steps = data.workflowSteps ?? [];
  if (steps.length === 0) {
    container.replaceChildren(h('p', { class: 'empty' }, 'The app declares no custom workflow step.'));
    return;
  }
  container.replaceChildren(...steps.map((step) => stepForm(step, data, run)), runList(data.workflowRuns ?? [], data.userNames, steps));
}

/** A person input's value: who the person running the workflow picked, else themself. */
function personOf(step, input, me) {
  const choice = picked.get(`${step.callbackId}:${input.name}`);
  return choice && choice.by === me ? choice.value : me;
}

function stepForm(step, data, run) {
  const values = typed.get(step.callbackId) ?? {};
  typed.set(step.callbackId, values);
  const me = data.me.id;
  const field = (input) => {
    const id = `wf-${step.callbackId}-${input.name}`;
    if (input.type === 'runner') {
      return h(
        'label',
        { class: 'workflow-input', for: id },
        h('span', {}, input.title),
        h('input', { id, name: input.name, value: `${data.me.realName} (Person who used this workflow)`, readonly: true, disabled: true }),
      );
    }
    if (input.type !== 'user') values[input.name] ??= input.example ?? '';
    const chosen = input.type === 'user' ? personOf(step, input, me) : undefined;
    const control =
      input.type === 'user'
        ? h(
            'select',
            {
              id,
              name: input.name,
              onchange: (event) => {
                picked.set(`${step.callbackId}:${input.name}`, { by: me, value: event.target.value });
              },
            },
            data.people.map((person) => h('option', { value: person.id, selected: person.id === chosen }, person.realName)),
          )
        : h('input', {
            id,
            name: input.name,
            value: values[input.name],
            oninput: (event) => {
              values[input.name] = event.target.value;
            },
          });
    return h('label', { class: 'workflow-input', for: id }, h('span', {}, `${input.title}${input.required ? ' *' : ''}`), control);
  };
  return h(
    'form',
    {
      class: 'workflow-step',
      'data-step': step.callbackId,
      onsubmit: (event) => {
        event.preventDefault();
        const inputs = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
        for (const input of step.inputs) {
          if (input.type === 'user') inputs[input.name] = personOf(step, input, me);
          if (input.type === 'runner') inputs[input.name] = me;
        }
        void run(step.callbackId, inputs);
      },
    },
    h('h2', {}, `Run workflow · ${step.title}`),
    h('p', { class: 'hint' }, "A workflow whose step is the app's custom step: Slack sends the app function_executed with these inputs and a function token."),
    h('div', { class: 'workflow-inputs' }, step.inputs.map(field)),
    h('button', { type: 'submit', class: 'btn primary' }, 'Run workflow'),
  );
}

/** The step's note on a run still going, its `{input}` placeholders filled with the run's inputs (people by name). */
function runningNote(step, run, userNames) {
  const note = step?.runningNote ?? 'the step is not completed yet';
  return note.replace(/\{(\w+)\}/g, (_, name) => {
    const value = run.inputs?.[name] ?? '';
    return userNames[value] ?? value;
  });
}

function runList(runs, userNames, steps) {
  const rows = [...runs].reverse().map((run) => {
    const step = steps.find((candidate) => candidate.callbackId === run.callbackId);
    const outcome =
      run.state === 'running'
        ? `running: ${runningNote(step, run, userNames)}`
        : run.state === 'completed'
          ? `completed: ${Object.entries(run.outputs ?? {})
              .map(([key, value]) => `${key} = ${value}`)
              .join(', ')}`
          : `failed: ${run.error}`;
    const who = userNames[run.inputs.requester] ?? run.inputs.requester ?? '';
    const runner = step?.inputs.find((input) => input.type === 'runner');
    const by = runner ? (userNames[run.inputs[runner.name]] ?? '') : '';
    return h(
      'li',
      { class: `workflow-run ${run.state}`, 'data-execution': run.executionId },
      h('strong', {}, run.executionId),
      ` · ${run.callbackId}${by && by !== who ? ` run by ${by}` : ''}${who ? ` for ${who}` : ''} · `,
      h('span', { class: 'workflow-outcome' }, outcome),
    );
  });
  return h('section', { class: 'workflow-runs' }, h('h3', {}, 'Runs'), rows.length > 0 ? h('ul', {}, rows) : h('p', { class: 'empty' }, 'No run yet.'));
}
