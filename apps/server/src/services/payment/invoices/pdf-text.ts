import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** pdfjs reads the standard 14 fonts' metrics from its own package (a file path in Node). */
const STANDARD_FONTS = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/**
 * The text of a PDF, page by page, as a reader extracts it (pdfjs-dist, Mozilla's PDF reader):
 * the tests hold the documents to what their pages say. Each page's text items are joined by a
 * space, lines by a line break.
 */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: string[]; title: string | undefined }> {
  const document = await getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: STANDARD_FONTS,
    isEvalSupported: false,
  }).promise;
  const pages: string[] = [];
  for (let index = 1; index <= document.numPages; index++) {
    const content = await (await document.getPage(index)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ' '}` : ''))
        .join('')
        .replace(/[ \t]+/g, ' '),
    );
  }
  const { info } = (await document.getMetadata()) as { info: { Title?: string } };
  await document.destroy();
  return { pages, title: info.Title };
}
