/**
 * Browser code of the editor floor page: a plain textarea whose counters are plain DOM, computed per
 * input with the same shared functions the template editor uses (render, measure, characterCount).
 * Bundled by esbuild in floor-server.ts.
 */
import { characterCount, TEMPLATE_BODY_MAX } from '../../src/shared/contract/templates';
import { measure, render } from '../../src/shared/sms';

const number = new Intl.NumberFormat('en-GB');
const body = document.querySelector<HTMLTextAreaElement>('#body')!;
const encoding = document.querySelector<HTMLElement>('#encoding')!;
const segments = document.querySelector<HTMLElement>('#segments')!;
const characters = document.querySelector<HTMLElement>('#characters')!;

function update(): void {
  const text = body.value;
  const measurement = measure(render(text, { links: {}, fields: {} }));
  encoding.textContent = measurement.encoding;
  segments.textContent = `${measurement.segments} ${measurement.segments === 1 ? 'segment' : 'segments'} · ${measurement.length}/${measurement.segments * measurement.per_segment}`;
  characters.textContent = `${number.format(characterCount(text))} / ${number.format(TEMPLATE_BODY_MAX)} characters`;
}

body.addEventListener('input', update);
update();
