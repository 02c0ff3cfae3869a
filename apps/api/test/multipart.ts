import sharp from 'sharp';

export interface Part {
  name: string;
  content: Buffer;
  /** What the browser claims; the server never trusts it. */
  type?: string;
}

/** A multipart body as a browser's FormData sends it: `metadata` (JSON) and the `files`. */
export async function multipart(files: Part[], metadata: unknown) {
  const form = new FormData();
  if (metadata !== undefined) form.append('metadata', JSON.stringify(metadata));
  for (const file of files) {
    form.append('files', new Blob([new Uint8Array(file.content)], { type: file.type ?? 'image/png' }), file.name);
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

/** A patient's photo as the files form uploads it: a 40×40 PNG, `sonrisa.png`, of type photo. */
export async function photoUpload() {
  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#c33' } })
    .png()
    .toBuffer();
  return multipart([{ name: 'sonrisa.png', content: png }], [{ fileType: 'photo' }]);
}

/** A PDF of `bytes` bytes (a minimal document padded with a comment): passes the upload's type check. */
export function paddedPdf(bytes: number): Buffer {
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%',
  );
  const tail = Buffer.from('\n%%EOF\n');
  return Buffer.concat([head, Buffer.alloc(Math.max(0, bytes - head.length - tail.length), 0x41), tail]);
}
