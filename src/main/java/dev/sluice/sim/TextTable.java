package dev.sluice.sim;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Left-aligned columns separated by three spaces, as kubectl prints them; the last column is not padded. */
final class TextTable {

    private final List<String[]> rows = new ArrayList<>();

    TextTable(String... header) {
        rows.add(header);
    }

    void row(String... cells) {
        rows.add(cells);
    }

    void print(PrintStream out) {
        int cols = rows.get(0).length;
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], cell(r, i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            sb.setLength(0);
            for (int i = 0; i < cols; i++) {
                String c = cell(r, i);
                sb.append(c);
                if (i < cols - 1) {
                    sb.append(" ".repeat(width[i] - c.length() + 3));
                }
            }
            out.println(sb.toString().stripTrailing());
        }
    }

    private static String cell(String[] r, int i) {
        return i < r.length && r[i] != null ? r[i] : "";
    }
}
