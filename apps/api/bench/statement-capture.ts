/**
 * What a server sends to PostgreSQL for one request, recorded on the wire and replayed through
 * `pg` (the `http` bench's "raw statements"). A small TCP proxy sits between the server and
 * PostgreSQL, reads the frontend messages as they pass (the simple query `Q`, the extended
 * protocol's Parse/Bind/Execute) and, while recording, keeps each executed statement with its
 * connection, name and parameters. Recording on the wire works for any checkout's server (the
 * baseline too) and cannot drift from what the repositories really send.
 */
import net from 'node:net';
import type pg from 'pg';

/** One statement as the server sent it. */
export interface CapturedStatement {
  /** Which of the server's pool connections sent it. */
  connection: number;
  text: string;
  /** Extended protocol only: the parameters (text format, as node-postgres sends them). */
  values?: (string | null)[];
  /** A named (prepared once per connection) statement. */
  name?: string;
}

/** Consecutive statements of one connection: a transaction, or one statement on its own. */
export type StatementUnit = CapturedStatement[];

export interface StatementCapture {
  /** `postgres://…` through the proxy, to give the server as DATABASE_URL. */
  url: string;
  /** Records what `fn` makes the server send. */
  record(fn: () => Promise<void>): Promise<CapturedStatement[]>;
  close(): Promise<void>;
}

const sslRequestCode = 80877103;
const gssEncRequestCode = 80877104;

/** A proxy in front of the PostgreSQL of `databaseUrl`, listening on a free local port. */
export async function startStatementCapture(databaseUrl: string): Promise<StatementCapture> {
  const upstream = new URL(databaseUrl);
  let recording: CapturedStatement[] | null = null;
  let connections = 0;
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    connections += 1;
    const connection = connections;
    const database = net.connect(Number(upstream.port || 5432), upstream.hostname);
    sockets.add(client).add(database);
    client.on('close', () => database.destroy());
    database.on('close', () => client.destroy());
    client.on('error', () => database.destroy());
    database.on('error', () => client.destroy());
    database.pipe(client);

    const parsed = new Map<string, string>();
    let pendingBind: { name: string; values: (string | null)[] } | null = null;
    let startup = true;
    let buffer: Buffer = Buffer.alloc(0);

    const onMessage = (type: number, body: Buffer) => {
      const type_ = String.fromCharCode(type);
      if (type_ === 'Q') {
        recording?.push({ connection, text: cString(body, 0).value });
      } else if (type_ === 'P') {
        const name = cString(body, 0);
        parsed.set(name.value, cString(body, name.next).value);
      } else if (type_ === 'B') {
        const portal = cString(body, 0);
        const statement = cString(body, portal.next);
        let offset = statement.next;
        const formats = body.readInt16BE(offset);
        offset += 2 + formats * 2;
        const count = body.readInt16BE(offset);
        offset += 2;
        const values: (string | null)[] = [];
        for (let i = 0; i < count; i += 1) {
          const length = body.readInt32BE(offset);
          offset += 4;
          if (length < 0) values.push(null);
          else {
            values.push(body.toString('utf8', offset, offset + length));
            offset += length;
          }
        }
        pendingBind = { name: statement.value, values };
      } else if (type_ === 'E' && pendingBind) {
        const { name, values } = pendingBind;
        pendingBind = null;
        recording?.push({ connection, text: parsed.get(name) ?? '', values, ...(name ? { name } : {}) });
      }
    };

    client.on('data', (chunk: Buffer) => {
      database.write(chunk);
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        if (startup) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          startup = code === sslRequestCode || code === gssEncRequestCode;
          buffer = buffer.subarray(length);
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1);
        if (buffer.length < 1 + length) return;
        onMessage(buffer[0] as number, buffer.subarray(5, 1 + length));
        buffer = buffer.subarray(1 + length);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);

  return {
    url: url.toString(),
    async record(fn) {
      recording = [];
      try {
        await fn();
        return recording;
      } finally {
        recording = null;
      }
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function cString(buffer: Buffer, offset: number): { value: string; next: number } {
  const end = buffer.indexOf(0, offset);
  return { value: buffer.toString('utf8', offset, end), next: end + 1 };
}

/** Splits a request's statements into runs of one connection (each run is replayed on one client). */
export function unitsOf(statements: CapturedStatement[]): StatementUnit[] {
  const units: StatementUnit[] = [];
  for (const statement of statements) {
    const last = units.at(-1);
    if (last && last[0]?.connection === statement.connection) last.push(statement);
    else units.push([statement]);
  }
  return units;
}

/** Sends one request's statements as the server did: each unit on one pooled client, in order. */
export async function replay(pool: pg.Pool, units: StatementUnit[]): Promise<void> {
  for (const unit of units) {
    const client = await pool.connect();
    let failed: Error | undefined;
    try {
      for (const statement of unit) {
        if (statement.values === undefined) await client.query(statement.text);
        else {
          // queryMode (node-postgres ≥ 8.8, untyped): the extended protocol even without parameters.
          const query = { text: statement.text, values: statement.values, queryMode: 'extended' };
          await client.query(statement.name ? { ...query, name: statement.name } : query);
        }
      }
    } catch (error) {
      failed = error as Error; // a client left inside a failed transaction is closed, not reused
      throw error;
    } finally {
      client.release(failed);
    }
  }
}

/** `begin; …` on one line, parameters inlined for reading (shortened). */
export function describeStatement(statement: CapturedStatement): string {
  const oneLine = statement.text.replace(/\s+/g, ' ').trim();
  const text = oneLine.length > 110 ? `${oneLine.slice(0, 107)}…` : oneLine;
  return statement.name ? `${text} [prepared ${statement.name}]` : text;
}
