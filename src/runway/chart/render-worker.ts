/**
 * The chart renderer's worker thread: rasterises SVG to PNG with resvg, loading only the font shipped
 * in assets/fonts (no system fonts), so that the image is the same on every machine and the main
 * thread's event loop never waits for it.
 */
import { parentPort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';

/** From src/runway/chart/ and dist/runway/chart/ alike: the repository's (or image's) assets/fonts. */
const FONT_FILE = fileURLToPath(new URL('../../../assets/fonts/Inter-Regular.ttf', import.meta.url));

export interface RenderRequest {
  id: number;
  svg: string;
}

export type RenderAnswer = { id: number; png: Uint8Array } | { id: number; error: string };

parentPort?.on('message', (request: RenderRequest) => {
  try {
    const png = new Resvg(request.svg, {
      font: { fontFiles: [FONT_FILE], loadSystemFonts: false, defaultFontFamily: 'Inter' },
      fitTo: { mode: 'original' },
      background: '#ffffff',
    })
      .render()
      .asPng();
    const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
    parentPort?.postMessage({ id: request.id, png: bytes } satisfies RenderAnswer, [bytes.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies RenderAnswer);
  }
});
