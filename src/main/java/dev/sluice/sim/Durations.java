package dev.sluice.sim;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as Go and kubectl write them ("60s", "1m30s", "500ms", "1.5h"), in milliseconds; and back. */
public final class Durations {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private Durations() {
    }

    /**
     * @throws IllegalArgumentException not a duration, or not a whole number of milliseconds
     */
    public static long parseMillis(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty duration; write e.g. 60s, 1m30s or 500ms");
        }
        String s = text.trim();
        if (s.equals("0")) {
            return 0;
        }
        Matcher m = PART.matcher(s);
        int at = 0;
        BigDecimal total = BigDecimal.ZERO;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("\"" + text + "\" is not a duration; write e.g. 60s, 1m30s or 500ms");
            }
            BigDecimal n = new BigDecimal(m.group(1));
            long unit = switch (m.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m" -> 60_000;
                default -> 3_600_000;
            };
            total = total.add(n.multiply(BigDecimal.valueOf(unit)));
            at = m.end();
        }
        try {
            return total.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("\"" + text + "\" is not a whole number of milliseconds");
        }
    }

    /** Seconds with up to three decimals and no trailing zeros: 60000 → "60", 12500 → "12.5". */
    public static String seconds(long millis) {
        return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
    }

    /** A short human duration: "0s", "12.5s", "2m", "3m20s", "1h5m". */
    public static String human(long millis) {
        if (millis < 60_000) {
            return seconds(millis) + "s";
        }
        long totalSeconds = millis / 1000;
        long h = totalSeconds / 3600;
        long m = (totalSeconds % 3600) / 60;
        long s = totalSeconds % 60;
        StringBuilder sb = new StringBuilder();
        if (h > 0) {
            sb.append(h).append('h');
        }
        if (m > 0) {
            sb.append(m).append('m');
        }
        if (s > 0 && h == 0) {
            sb.append(s).append('s');
        }
        return sb.toString();
    }
}
