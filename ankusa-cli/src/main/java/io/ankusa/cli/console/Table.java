package io.ankusa.cli.console;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A plain-text table for a terminal: a header row (optional), aligned columns separated by two
 * spaces, numbers right-aligned. Cells and the title are untrusted text and are printed through
 * {@link TerminalText#escape}. Not thread-safe.
 */
public final class Table {

    private final List<String> headers;
    private final boolean[] rightAligned;
    private final List<List<String>> rows = new ArrayList<>();
    private String title;

    private Table(List<String> headers, boolean[] rightAligned) {
        this.headers = headers;
        this.rightAligned = rightAligned;
    }

    /** Two columns, a label and its value, no header. */
    public static Table keyValue() {
        return new Table(List.of(), new boolean[] {false, false});
    }

    /** Columns with these headers; the first is left-aligned, the others right-aligned. */
    public static Table columns(String... headers) {
        boolean[] right = new boolean[headers.length];
        Arrays.fill(right, true);
        right[0] = false;
        return new Table(List.of(headers), right);
    }

    /** Left-aligns the given columns (0-based), for text. */
    public Table leftAligned(int... columns) {
        for (int column : columns) {
            rightAligned[column] = false;
        }
        return this;
    }

    /** A line above the table. */
    public Table title(String title) {
        this.title = TerminalText.escape(Objects.requireNonNull(title, "title"));
        return this;
    }

    /** Adds a row; it must have one cell per column. */
    public Table row(String... cells) {
        if (cells.length != rightAligned.length) {
            throw new IllegalArgumentException("a row of " + rightAligned.length + " cells expected: "
                    + Arrays.toString(cells));
        }
        rows.add(Arrays.stream(cells).map(TerminalText::escape).toList());
        return this;
    }

    /** The rows added so far. */
    public int size() {
        return rows.size();
    }

    /** The table as text, one line per row, each ending with a line break. */
    public String render() {
        int[] widths = new int[rightAligned.length];
        List<List<String>> all = new ArrayList<>();
        if (!headers.isEmpty()) {
            all.add(headers);
        }
        all.addAll(rows);
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder text = new StringBuilder();
        if (title != null) {
            text.append(title).append('\n');
        }
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                if (i > 0) {
                    line.append("  ");
                }
                String cell = row.get(i);
                String pad = " ".repeat(widths[i] - cell.length());
                line.append(rightAligned[i] ? pad + cell : cell + pad);
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        return text.toString();
    }
}
