package dev.sluice.metrics;

/** A metric's name (exactly as scraped) and its help text, which always travel together. */
record Metric(String name, String help) {
}
