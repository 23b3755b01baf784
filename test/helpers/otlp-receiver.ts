import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as the receiver read it, whichever encoding it came in. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  links: Array<{ traceId: string; spanId: string }>;
  /** The encoding of the export that carried it. */
  contentType: string;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Waits (at most `timeoutMs`) until `found` holds for the spans received, then returns them. */
  waitFor(found: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/**
 * A test OTLP/HTTP receiver on loopback: `POST /v1/traces` in http/json or http/protobuf. The
 * protobuf is read here with a reader of the wire format written for the test (field numbers of
 * opentelemetry-proto's trace messages), so the check does not rely on the exporter's own code.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type'] ?? '');
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      try {
        spans.push(
          ...(contentType.startsWith('application/json')
            ? fromJson(JSON.parse(body.toString('utf8')), contentType)
            : fromProtobuf(body, contentType)),
        );
      } catch {
        res.writeHead(400).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': contentType })
        .end(contentType.startsWith('application/json') ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    async waitFor(found, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!found(spans)) {
        if (Date.now() > deadline)
          throw new Error(
            `spans not received in ${timeoutMs} ms; ` +
              `got: ${spans.map((span) => `${span.service} ${span.name}`).join(', ')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return spans;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type JsonValue = { stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number };
type JsonAttribute = { key: string; value: JsonValue };

function jsonAttributes(list: JsonAttribute[] | undefined): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    attributes[key] =
      value.stringValue ??
      value.boolValue ??
      (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? ''));
  }
  return attributes;
}

function fromJson(request: any, contentType: string): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const service = String(jsonAttributes(resourceSpans.resource?.attributes)['service.name']);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          service,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind,
          attributes: jsonAttributes(span.attributes),
          links: (span.links ?? []).map((link: any) => ({ traceId: link.traceId, spanId: link.spanId })),
          contentType,
        });
      }
    }
  }
  return spans;
}

/** The fields of one protobuf message: field number -> values (varints as bigint, the rest as bytes). */
function fields(bytes: Buffer): Map<number, Array<bigint | Buffer>> {
  const found = new Map<number, Array<bigint | Buffer>>();
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = bytes[at++];
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (at < bytes.length) {
    const tag = Number(varint());
    const wire = tag & 7;
    let value: bigint | Buffer;
    if (wire === 0) value = varint();
    else {
      const length = wire === 1 ? 8 : wire === 5 ? 4 : wire === 2 ? Number(varint()) : NaN;
      if (Number.isNaN(length)) throw new Error(`unexpected wire type ${wire}`);
      value = bytes.subarray(at, at + length);
      at += length;
    }
    const list = found.get(tag >> 3) ?? [];
    list.push(value);
    found.set(tag >> 3, list);
  }
  return found;
}

const messages = (message: Map<number, Array<bigint | Buffer>>, field: number) =>
  (message.get(field) ?? []).map((value) => fields(value as Buffer));
const bytesOf = (message: Map<number, Array<bigint | Buffer>>, field: number) =>
  (message.get(field)?.[0] as Buffer | undefined) ?? Buffer.alloc(0);

/** KeyValue { key = 1; AnyValue value = 2 { string 1, bool 2, int 3, double 4 } } */
function protobufAttributes(
  list: Array<Map<number, Array<bigint | Buffer>>>,
): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const pair of list) {
    const value = fields(bytesOf(pair, 2));
    const key = bytesOf(pair, 1).toString('utf8');
    if (value.has(1)) attributes[key] = (value.get(1)![0] as Buffer).toString('utf8');
    else if (value.has(2)) attributes[key] = value.get(2)![0] === 1n;
    else if (value.has(3)) attributes[key] = Number(value.get(3)![0]);
    else if (value.has(4)) attributes[key] = (value.get(4)![0] as Buffer).readDoubleLE(0);
  }
  return attributes;
}

/** ExportTraceServiceRequest { ResourceSpans 1 { Resource 1 { attributes 1 }, ScopeSpans 2 { Span 2 } } } */
function fromProtobuf(body: Buffer, contentType: string): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of messages(fields(body), 1)) {
    const resource = messages(resourceSpans, 1)[0];
    const service = String(protobufAttributes(resource ? messages(resource, 1) : [])['service.name']);
    for (const scopeSpans of messages(resourceSpans, 2)) {
      for (const span of messages(scopeSpans, 2)) {
        spans.push({
          service,
          traceId: bytesOf(span, 1).toString('hex'),
          spanId: bytesOf(span, 2).toString('hex'),
          parentSpanId: bytesOf(span, 4).toString('hex'),
          name: bytesOf(span, 5).toString('utf8'),
          kind: Number(span.get(6)?.[0] ?? 0n),
          attributes: protobufAttributes(messages(span, 9)),
          links: messages(span, 13).map((link) => ({
            traceId: bytesOf(link, 1).toString('hex'),
            spanId: bytesOf(link, 2).toString('hex'),
          })),
          contentType,
        });
      }
    }
  }
  return spans;
}
