package dev.sluice.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's {@code time.ParseDuration} form, as Kueue's configuration writes durations: 30m, 1h30m, 1.5h, -2s, 0. */
final class GoDuration {

    private static final Pattern TERM = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");

    private GoDuration() {
    }

    /** The duration (negative when signed so), or null when the text is not a Go duration. */
    static Duration parse(String text) {
        String s = text.trim();
        boolean negative = false;
        if (s.startsWith("-") || s.startsWith("+")) {
            negative = s.startsWith("-");
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = TERM.matcher(s);
        int at = 0;
        BigDecimal nanos = BigDecimal.ZERO;
        while (at < s.length() && m.find(at) && m.start() == at) {
            nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unitNanos(m.group(2)))));
            at = m.end();
        }
        if (s.isEmpty() || at != s.length()) {
            return null;
        }
        Duration d = Duration.ofNanos(nanos.longValue());
        return negative ? d.negated() : d;
    }

    private static long unitNanos(String unit) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            default -> 3_600_000_000_000L; // h
        };
    }
}
