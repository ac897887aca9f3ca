package dev.sluice.engine.tas;

import java.util.List;

/**
 * The JSON Kueue's encoding compares the lengths of (encoding/json of the v1beta2 struct: fields in declaration
 * order, empty ones omitted). Only the length matters, so the output is exactly Go's for label-value strings.
 */
final class WireJson {
    private WireJson() {
    }

    static String toJson(WireTopologyAssignment ta) {
        StringBuilder b = new StringBuilder("{");
        boolean comma = false;
        if (!ta.levels().isEmpty()) {
            b.append("\"levels\":");
            strings(b, ta.levels());
            comma = true;
        }
        if (!ta.slices().isEmpty()) {
            if (comma) {
                b.append(',');
            }
            b.append("\"slices\":[");
            for (int i = 0; i < ta.slices().size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                slice(b, ta.slices().get(i));
            }
            b.append(']');
        }
        return b.append('}').toString();
    }

    private static void slice(StringBuilder b, WireTopologyAssignment.Slice s) {
        b.append('{');
        boolean comma = false;
        if (s.domainCount() != 0) {
            b.append("\"domainCount\":").append(s.domainCount());
            comma = true;
        }
        if (!s.valuesPerLevel().isEmpty()) {
            if (comma) {
                b.append(',');
            }
            b.append("\"valuesPerLevel\":[");
            for (int i = 0; i < s.valuesPerLevel().size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                levelValues(b, s.valuesPerLevel().get(i));
            }
            b.append(']');
            comma = true;
        }
        if (comma) {
            b.append(',');
        }
        // podCounts is a struct: encoding/json never omits it
        b.append("\"podCounts\":{");
        WireTopologyAssignment.PodCounts pc = s.podCounts();
        if (pc.universal() != null) {
            b.append("\"universal\":").append(pc.universal());
        } else if (pc.individual() != null && !pc.individual().isEmpty()) {
            b.append("\"individual\":[");
            for (int i = 0; i < pc.individual().size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(pc.individual().get(i));
            }
            b.append(']');
        }
        b.append("}}");
    }

    private static void levelValues(StringBuilder b, WireTopologyAssignment.LevelValues v) {
        b.append('{');
        if (v.universal() != null) {
            b.append("\"universal\":");
            string(b, v.universal());
        } else if (v.individual() != null) {
            b.append("\"individual\":{");
            boolean comma = false;
            if (v.individual().prefix() != null) {
                b.append("\"prefix\":");
                string(b, v.individual().prefix());
                comma = true;
            }
            if (v.individual().suffix() != null) {
                if (comma) {
                    b.append(',');
                }
                b.append("\"suffix\":");
                string(b, v.individual().suffix());
                comma = true;
            }
            if (!v.individual().roots().isEmpty()) {
                if (comma) {
                    b.append(',');
                }
                b.append("\"roots\":");
                strings(b, v.individual().roots());
            }
            b.append('}');
        }
        b.append('}');
    }

    private static void strings(StringBuilder b, List<String> values) {
        b.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            string(b, values.get(i));
        }
        b.append(']');
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '<' -> b.append("\\u003c");
                case '>' -> b.append("\\u003e");
                case '&' -> b.append("\\u0026");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
