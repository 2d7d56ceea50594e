// The Web Worker that runs the searches, so that the page stays responsive meanwhile.
import { load } from '../wasm/index.mjs';
import { makeHandler } from './engine.js';

const ready = load().then(makeHandler);
self.onmessage = async (e) => {
  const { id } = e.data;
  try {
    const handle = await ready;
    self.postMessage({ id, result: handle(e.data) });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.message ? err.message : err) });
  }
};
