package dev.sluice.engine.tas;

/** Go's %q for the plain names in Kueue's messages: double quotes, with backslash and quote escaped. */
final class GoQuote {
    private GoQuote() {
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
