// Workflow Builder on the local page: "Run workflow" with one of the app's custom steps and typed
// inputs (the workspace sends the app `function_executed`), and each run with how it completed.
import { h } from './blocks.js';

/** What the form has typed, by step and input, kept across refreshes. */
const typed = new Map();

export function renderWorkflows(container, data, run) {
  const steps = data.workflowSteps ?? [];
  if (steps.length === 0) {
    container.replaceChildren(h('p', { class: 'empty' }, 'The app declares no custom workflow step.'));
    return;
  }
  container.replaceChildren(...steps.map((step) => stepForm(step, data, run)), runList(data.workflowRuns ?? [], data.userNames));
}

function stepForm(step, data, run) {
  const values = typed.get(step.callbackId) ?? {};
  typed.set(step.callbackId, values);
  const field = (input) => {
    const id = `wf-${step.callbackId}-${input.name}`;
    values[input.name] ??= input.type === 'user' ? data.me.id : (input.example ?? '');
    const control = input.type === 'user'
      ? h('select', { id, name: input.name, onchange: (event) => { values[input.name] = event.target.value; } },
          data.people.map((person) => h('option', { value: person.id, selected: person.id === values[input.name] }, person.realName)))
      : h('input', { id, name: input.name, value: values[input.name], oninput: (event) => { values[input.name] = event.target.value; } });
    return h('label', { class: 'workflow-input', for: id }, h('span', {}, `${input.title}${input.required ? ' *' : ''}`), control);
  };
  return h('form', {
    class: 'workflow-step', 'data-step': step.callbackId,
    onsubmit: (event) => {
      event.preventDefault();
      const inputs = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ''));
      void run(step.callbackId, inputs);
    },
  },
  h('h2', {}, `Run workflow · ${step.title}`),
  h('p', { class: 'hint' }, 'A workflow whose step is the app\'s custom step: Slack sends the app function_executed with these inputs and a function token.'),
  h('div', { class: 'workflow-inputs' }, step.inputs.map(field)),
  h('button', { type: 'submit', class: 'btn primary' }, 'Run workflow'));
}

function runList(runs, userNames) {
  const rows = [...runs].reverse().map((run) => {
    const outcome = run.state === 'running'
      ? 'running: the step is not completed yet'
      : run.state === 'completed'
        ? `completed: ${Object.entries(run.outputs ?? {}).map(([key, value]) => `${key} = ${value}`).join(', ')}`
        : `failed: ${run.error}`;
    const who = userNames[run.inputs.requester] ?? run.inputs.requester ?? '';
    return h('li', { class: `workflow-run ${run.state}`, 'data-execution': run.executionId },
      h('strong', {}, run.executionId), ` · ${run.callbackId}${who ? ` for ${who}` : ''} · `, h('span', { class: 'workflow-outcome' }, outcome));
  });
  return h('section', { class: 'workflow-runs' }, h('h3', {}, 'Runs'), rows.length > 0 ? h('ul', {}, rows) : h('p', { class: 'empty' }, 'No run yet.'));
}
