import { eventTypes } from '../../webhooks/event-types.js';
import { html, type Html } from '../../http/html.js';
import type { Messages } from '../messages.js';

/** The event types grouped by their object (`invoice.paid` under invoice), for checkboxes. */
function groups(): Map<string, string[]> {
  const byObject = new Map<string, string[]>();
  for (const type of eventTypes) {
    const object = type.includes('.') ? type.slice(0, type.indexOf('.')) : 'other';
    byObject.set(object, [...(byObject.get(object) ?? []), type]);
  }
  return byObject;
}

/** Checkboxes for an endpoint's subscriptions: "all events" (`*`) or a chosen list. */
export function eventTypesField(m: Messages, selected: readonly string[]): Html {
  const all = selected.includes('*');
  const fieldsets = [...groups()].map(
    ([object, types]) => html`<fieldset class="types"><legend>${object.replace('_', ' ')}</legend>
${types.map((type) => html`<label><input type="checkbox" name="events" value="${type}"${!all && selected.includes(type) ? html` checked` : null}> ${type}</label>`)}</fieldset>`,
  );
  return html`<fieldset><legend>${m.events}</legend>
  <label class="strong"><input type="checkbox" name="events" value="*"${all ? html` checked` : null}> ${m.allEventsFuture}</label>
  <details${all ? null : html` open`}><summary>${m.orChooseTypes}</summary><div class="types-grid">${fieldsets}</div></details>
</fieldset>`;
}

/** What the form asks for: `*` alone when "all events" is ticked. */
export function eventsFromForm(values: string[]): string[] {
  return values.includes('*') ? ['*'] : values;
}
