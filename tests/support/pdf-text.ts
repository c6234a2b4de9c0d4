import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const require = createRequire(import.meta.url);
// pdfjs reads the 14 standard fonts' data from here (a folder path with its trailing slash, in Node).
const STANDARD_FONTS = `${join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** A PDF's text as a reader's copy-paste would give it: every page, each line on its own line. */
export async function pdfText(bytes: Uint8Array): Promise<{ text: string; pages: number; title: unknown }> {
  // pdfjs takes ownership of the buffer it is given: hand it a copy.
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, standardFontDataUrl: STANDARD_FONTS, verbosity: 0 }).promise;
  try {
    const lines: string[] = [];
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      let line = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        }
      }
      if (line) lines.push(line);
    }
    const { info } = await pdf.getMetadata();
    return { text: lines.join('\n'), pages: pdf.numPages, title: (info as { Title?: unknown }).Title };
  } finally {
    await pdf.destroy();
  }
}
