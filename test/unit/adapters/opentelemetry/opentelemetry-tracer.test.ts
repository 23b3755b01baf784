import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryTracer, type SamplerName } from '../../../../src/adapters/opentelemetry';
import type { TraceParent } from '../../../../src/ports/tracer.port';
import { startOtlpReceiver, type OtlpReceiver } from '../../../helpers/otlp-receiver';

describe('OpenTelemetryTracer', () => {
  let receiver: OtlpReceiver;
  const tracers: OpenTelemetryTracer[] = [];
  const tracerWith = (sampler: SamplerName, samplerRatio = 1) => {
    const tracer = new OpenTelemetryTracer(
      {
        serviceName: 'unit',
        tracesUrl: `${receiver.url}/v1/traces`,
        protocol: 'http/json',
        sampler,
        samplerRatio,
        scheduleDelayMs: 50,
      },
      '0.0.0',
    );
    tracers.push(tracer);
    return tracer;
  };
  const traceparentOf = (tracer: OpenTelemetryTracer, context: TraceParent) => {
    const carrier: Record<string, string> = {};
    tracer.inject(context, carrier);
    return carrier.traceparent;
  };

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    for (const tracer of tracers) await tracer.shutdown();
    await receiver?.close();
  });

  it('hands each span’s context to its work: a span started with it is its child, in the same trace', async () => {
    const tracer = tracerWith('parentbased_always_on');
    const seen = await tracer.inSpan(
      'outer',
      { role: 'server', attributes: () => ({ 'hexa.test': 'outer' }) },
      undefined,
      async (outer, outerContext) => {
        expect(outer.recording).toBe(true);
        return tracer.inSpan('inner', { role: 'internal' }, outerContext, async (_inner, innerContext) => ({
          outer: tracer.logFields(outerContext),
          inner: tracer.logFields(innerContext),
          sent: traceparentOf(tracer, innerContext),
        }));
      },
    );
    expect(seen.inner.trace_id).toBe(seen.outer.trace_id);
    expect(seen.inner.span_id).not.toBe(seen.outer.span_id);
    expect(seen.sent).toBe(`00-${seen.inner.trace_id}-${seen.inner.span_id}-01`);
    const spans = await receiver.waitFor(
      (received) => received.filter((span) => span.traceId === seen.outer.trace_id).length === 2,
    );
    const inner = spans.find((span) => span.name === 'inner')!;
    const outer = spans.find((span) => span.name === 'outer')!;
    expect(inner.parentSpanId).toBe(outer.spanId);
    expect(outer.attributes['hexa.test']).toBe('outer');
  });

  it(
    'builds nothing for a call that is not sampled: no attributes, ' + 'and its own calls go on in its context',
    async () => {
      const tracer = tracerWith('parentbased_always_off');
      const attributes = jest.fn(() => ({ 'hexa.test': 'never' }));
      const seen = await tracer.inSpan('root', { role: 'server', attributes }, undefined, async (root, rootContext) =>
        tracer.inSpan('child', { role: 'internal', attributes }, rootContext, async (child, childContext) => ({
          root,
          child,
          rootContext,
          childContext,
        })),
      );
      expect(seen.root.recording).toBe(false);
      expect(seen.child.recording).toBe(false);
      expect(attributes).not.toHaveBeenCalled();
      expect(seen.childContext).toBe(seen.rootContext);
      // Still a trace to hand on (sampled out), and ids for the call's log lines.
      const { trace_id, span_id } = tracer.logFields(seen.rootContext);
      expect(traceparentOf(tracer, seen.childContext)).toBe(`00-${trace_id}-${span_id}-00`);
    },
  );

  it('turns a throw of unrecorded work into a rejection, as for recorded work', async () => {
    const tracer = tracerWith('parentbased_always_off');
    const throwing = () => {
      throw new TypeError('thrown');
    };
    const result = tracer.inSpan('root', { role: 'server' }, undefined, throwing);
    await expect(result).rejects.toThrow('thrown');
  });

  it('records a failure on the span and passes it on', async () => {
    const tracer = tracerWith('always_on');
    let traceId = '';
    await expect(
      tracer.inSpan('failing', { role: 'internal' }, undefined, async (_span, context) => {
        traceId = tracer.logFields(context).trace_id;
        throw new TypeError('broken');
      }),
    ).rejects.toThrow('broken');
    const received = await receiver.waitFor((spans) => spans.some((span) => span.traceId === traceId));
    expect(received.find((span) => span.traceId === traceId)!.attributes['error.type']).toBe('TypeError');
  });

  describe('a call the sampler leaves out at its root', () => {
    const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
    const REMOTE_SPAN_ID = '00f067aa0ba902b7';
    const madeContexts = () => [
      jest.spyOn(trace, 'setSpan'),
      jest.spyOn(trace, 'setSpanContext'),
      jest.spyOn(trace, 'wrapSpanContext'),
    ];
    afterEach(() => jest.restoreAllMocks());

    it('makes no span, no span context and no span id while it runs, and exports nothing', async () => {
      const tracer = tracerWith('parentbased_traceidratio', 0);
      const made = madeContexts();
      const marker = jest.fn(() => ({ 'hexa.test': 'left out' }));
      const contexts = await tracer.inSpan(
        'GET /left-out',
        { role: 'server', attributes: marker, remoteParent: { host: 'localhost' } },
        undefined,
        async (root, rootContext) =>
          tracer.inSpan(
            'left-out.get',
            { role: 'internal', attributes: marker },
            rootContext,
            async (child, childContext) => {
              expect([root.recording, child.recording]).toEqual([false, false]);
              return { rootContext, childContext };
            },
          ),
      );
      for (const spy of made) expect(spy).not.toHaveBeenCalled();
      expect(marker).not.toHaveBeenCalled();
      expect(contexts.childContext).toBe(contexts.rootContext);

      // Asked for (a log line, an outgoing request), its context is made once: valid ids, the sampled flag off.
      const fields = tracer.logFields(contexts.rootContext);
      expect(fields.trace_id).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
      expect(fields.span_id).toMatch(/^(?!0{16})[0-9a-f]{16}$/);
      expect(tracer.logFields(contexts.childContext)).toEqual(fields);
      expect(traceparentOf(tracer, contexts.childContext)).toBe(`00-${fields.trace_id}-${fields.span_id}-00`);

      // A sampled trace started afterwards is the only one exported.
      const sampled = await tracer.inSpan(
        'GET /sampled',
        { role: 'server', remoteParent: { traceparent: `00-${TRACE_ID}-${REMOTE_SPAN_ID}-01` } },
        undefined,
        async (_span, context) => tracer.logFields(context),
      );
      await receiver.waitFor((spans) => spans.some((span) => span.traceId === sampled.trace_id));
      expect(
        receiver.spans.filter((span) => span.name.includes('left-out') || span.traceId === fields.trace_id),
      ).toEqual([]);
    });

    it(
      'honours a sampled incoming traceparent at a ratio that leaves every ' +
        'root out: its span is the remote span’s child',
      async () => {
        const tracer = tracerWith('parentbased_traceidratio', 0);
        const traceId = '0af7651916cd43dd8448eb211c80319c';
        const fields = await tracer.inSpan(
          'GET /honoured',
          { role: 'server', remoteParent: { traceparent: `00-${traceId}-${REMOTE_SPAN_ID}-01` } },
          undefined,
          async (span, context) =>
            tracer.inSpan('honoured.get', { role: 'internal' }, context, async (child) => {
              expect([span.recording, child.recording]).toEqual([true, true]);
              return tracer.logFields(context);
            }),
        );
        expect(fields.trace_id).toBe(traceId);
        const spans = await receiver.waitFor(
          (received) => received.filter((span) => span.traceId === traceId).length === 2,
        );
        const server = spans.find((span) => span.name === 'GET /honoured')!;
        expect(server.parentSpanId).toBe(REMOTE_SPAN_ID);
        expect(spans.find((span) => span.name === 'honoured.get')!.parentSpanId).toBe(server.spanId);
      },
    );

    it(
      'hands on an unsampled incoming trace with its trace id, its ' +
        'tracestate and its baggage, the sampled flag still off',
      async () => {
        const tracer = tracerWith('parentbased_always_on');
        const carrier = {
          traceparent: `00-${TRACE_ID}-${REMOTE_SPAN_ID}-00`,
          tracestate: 'vendor=value',
          baggage: 'tenant=blue',
        };
        const sent: Record<string, string> = {};
        await tracer.inSpan(
          'GET /not-sampled',
          { role: 'server', remoteParent: carrier },
          undefined,
          async (span, context) => {
            expect(span.recording).toBe(false);
            tracer.inject(context, sent);
          },
        );
        expect(sent.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-(?!${REMOTE_SPAN_ID})[0-9a-f]{16}-00$`));
        expect(sent.tracestate).toBe('vendor=value');
        expect(sent.baggage).toBe('tenant=blue');
      },
    );

    it('takes the trace id it was decided on for a root it keeps', async () => {
      const tracer = tracerWith('traceidratio', 0.5);
      const decided: Array<{ recording: boolean; traceId: string }> = [];
      for (let i = 0; i < 40; i++) {
        await tracer.inSpan('root', { role: 'internal' }, undefined, async (span, context) => {
          decided.push({ recording: span.recording, traceId: tracer.logFields(context).trace_id });
        });
      }
      const kept = decided.filter((root) => root.recording).map((root) => root.traceId);
      const left = decided.filter((root) => !root.recording).map((root) => root.traceId);
      // About half each way (the chance that all 40 go one way is 2^-39).
      expect(kept.length).toBeGreaterThan(0);
      expect(left.length).toBeGreaterThan(0);
      // The ratio sampler decides by the trace id, the same way for the same id wherever it is asked.
      const sampler = new TraceIdRatioBasedSampler(0.5);
      const decision = (traceId: string) => sampler.shouldSample(ROOT_CONTEXT, traceId).decision;
      for (const traceId of kept) expect(decision(traceId)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
      for (const traceId of left) expect(decision(traceId)).toBe(SamplingDecision.NOT_RECORD);
      const exported = await receiver.waitFor((spans) =>
        kept.every((traceId) => spans.some((span) => span.traceId === traceId)),
      );
      expect(exported.filter((span) => left.includes(span.traceId))).toEqual([]);
    });
  });
});
