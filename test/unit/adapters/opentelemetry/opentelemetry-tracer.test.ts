import { OpenTelemetryTracer, type SamplerName } from '../../../../src/adapters/opentelemetry';
import type { TraceParent } from '../../../../src/ports/tracer.port';
import { startOtlpReceiver, type OtlpReceiver } from '../../../helpers/otlp-receiver';

describe('OpenTelemetryTracer', () => {
  let receiver: OtlpReceiver;
  const tracers: OpenTelemetryTracer[] = [];
  const tracerWith = (sampler: SamplerName) => {
    const tracer = new OpenTelemetryTracer({ serviceName: 'unit', tracesUrl: `${receiver.url}/v1/traces`, protocol: 'http/json', sampler, samplerRatio: 1, scheduleDelayMs: 50 }, '0.0.0');
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
    const seen = await tracer.inSpan('outer', { role: 'server', attributes: () => ({ 'hexa.test': 'outer' }) }, undefined, async (outer, outerContext) => {
      expect(outer.recording).toBe(true);
      return tracer.inSpan('inner', { role: 'internal' }, outerContext, async (_inner, innerContext) => ({ outer: tracer.logFields(outerContext), inner: tracer.logFields(innerContext), sent: traceparentOf(tracer, innerContext) }));
    });
    expect(seen.inner.trace_id).toBe(seen.outer.trace_id);
    expect(seen.inner.span_id).not.toBe(seen.outer.span_id);
    expect(seen.sent).toBe(`00-${seen.inner.trace_id}-${seen.inner.span_id}-01`);
    const spans = await receiver.waitFor((received) => received.filter((span) => span.traceId === seen.outer.trace_id).length === 2);
    const inner = spans.find((span) => span.name === 'inner')!;
    const outer = spans.find((span) => span.name === 'outer')!;
    expect(inner.parentSpanId).toBe(outer.spanId);
    expect(outer.attributes['hexa.test']).toBe('outer');
  });

  it('builds nothing for a call that is not sampled: no attributes, and its own calls go on in its context', async () => {
    const tracer = tracerWith('parentbased_always_off');
    const attributes = jest.fn(() => ({ 'hexa.test': 'never' }));
    const seen = await tracer.inSpan('root', { role: 'server', attributes }, undefined, async (root, rootContext) =>
      tracer.inSpan('child', { role: 'internal', attributes }, rootContext, async (child, childContext) => ({ root, child, rootContext, childContext })),
    );
    expect(seen.root.recording).toBe(false);
    expect(seen.child.recording).toBe(false);
    expect(attributes).not.toHaveBeenCalled();
    expect(seen.childContext).toBe(seen.rootContext);
    // Still a trace to hand on (sampled out), and ids for the call's log lines.
    const { trace_id, span_id } = tracer.logFields(seen.rootContext);
    expect(traceparentOf(tracer, seen.childContext)).toBe(`00-${trace_id}-${span_id}-00`);
  });

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
    await expect(tracer.inSpan('failing', { role: 'internal' }, undefined, async (_span, context) => {
      traceId = tracer.logFields(context).trace_id;
      throw new TypeError('broken');
    })).rejects.toThrow('broken');
    const received = await receiver.waitFor((spans) => spans.some((span) => span.traceId === traceId));
    expect(received.find((span) => span.traceId === traceId)!.attributes['error.type']).toBe('TypeError');
  });
});
