package dev.sluice.sim;

import java.util.Map;

/** A minimal JSON writer for one-object-per-line output: fields in the order written, no dependencies. */
final class Json {

    private final StringBuilder sb = new StringBuilder("{");
    private boolean first = true;

    Json field(String name, String value) {
        key(name);
        if (value == null) {
            sb.append("null");
        } else {
            string(sb, value);
        }
        return this;
    }

    /** A number written as given (already formatted). */
    Json number(String name, String formatted) {
        key(name);
        sb.append(formatted);
        return this;
    }

    Json number(String name, long value) {
        return number(name, Long.toString(value));
    }

    Json number(String name, double value) {
        return number(name, format(value));
    }

    Json raw(String name, String json) {
        key(name);
        sb.append(json);
        return this;
    }

    /** A map of string or number or nested-map values, in the map's order. */
    Json map(String name, Map<String, ?> map) {
        key(name);
        sb.append(object(map));
        return this;
    }

    static String object(Map<String, ?> map) {
        StringBuilder out = new StringBuilder("{");
        boolean f = true;
        for (Map.Entry<String, ?> e : map.entrySet()) {
            if (!f) {
                out.append(", ");
            }
            f = false;
            string(out, e.getKey());
            out.append(": ");
            Object v = e.getValue();
            if (v instanceof Map<?, ?> m) {
                @SuppressWarnings("unchecked")
                Map<String, ?> nested = (Map<String, ?>) m;
                out.append(object(nested));
            } else if (v instanceof Double d) {
                out.append(format(d));
            } else if (v instanceof Number n) {
                out.append(n);
            } else if (v == null) {
                out.append("null");
            } else {
                string(out, v.toString());
            }
        }
        return out.append('}').toString();
    }

    /** Up to three decimals, no trailing zeros. */
    static String format(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "null";
        }
        return java.math.BigDecimal.valueOf(Math.round(v * 1000) / 1000.0).stripTrailingZeros().toPlainString();
    }

    private void key(String name) {
        if (!first) {
            sb.append(", ");
        }
        first = false;
        string(sb, name);
        sb.append(": ");
    }

    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return sb + "}";
    }
}
