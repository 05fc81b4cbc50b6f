/**
 * Debug Adapter Protocol framing: `Content-Length: N\r\n\r\n` + N bytes of JSON. `DapReader`
 * turns a byte stream into messages (any chunking), `frameDapMessage` the reverse. Used where we
 * carry an adapter's TCP connection ourselves (delve speaks DAP over TCP only).
 */
export type DapMessage = { readonly type: string; readonly seq?: number } & Record<string, unknown>;

const HEADER_END = Buffer.from('\r\n\r\n');

export class DapReader {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly onMessage: (message: DapMessage) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf(HEADER_END);
      if (headerEnd === -1) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const length = /Content-Length:\s*(\d+)/i.exec(header);
      if (!length) throw new Error(`A DAP header without Content-Length: ${JSON.stringify(header.slice(0, 200))}`);
      const bodyStart = headerEnd + HEADER_END.length;
      const bodyEnd = bodyStart + Number(length[1]);
      if (this.buffer.length < bodyEnd) return;
      const body = this.buffer.subarray(bodyStart, bodyEnd).toString('utf8');
      this.buffer = this.buffer.subarray(bodyEnd);
      this.onMessage(JSON.parse(body) as DapMessage);
    }
  }
}

export function frameDapMessage(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}
