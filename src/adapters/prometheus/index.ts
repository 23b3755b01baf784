export { PrometheusMetrics } from './prometheus-metrics';
