package io.ankusa.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The Markdown tables a bench prints, as data: every bench prints its cells as Markdown tables on
 * standard output, one row per backend and cell, and {@link BenchSuite} keeps them in a TSV file
 * per bench ({@code <Bench>.tsv}) beside the bench's raw output, for {@link PerformancePage}.
 *
 * <p>A table is a run of lines that start with {@code |} whose second line is the separator
 * ({@code |---|---:|}); its caption is the line printed just before it (blank lines skipped), when
 * that line is text and not another table. In the TSV file a table is a {@code #caption} line, an
 * {@code #align} line (the separator's cells), the header and the rows, each line's cells split by
 * tabs, and a blank line after it.
 */
public final class BenchTables {

    private static final Pattern SEPARATOR = Pattern.compile("\\|(\\s*:?-+:?\\s*\\|)+");
    private static final String CAPTION = "#caption";
    private static final String ALIGN = "#align";

    private BenchTables() {
    }

    /**
     * One table of a bench's output.
     *
     * @param caption the line printed before it, or empty
     * @param align the separator's cells ({@code ---}, {@code ---:}, …), one per column
     * @param header the column names
     * @param rows the rows, one list of cells each
     */
    public record Table(String caption, List<String> align, List<String> header, List<List<String>> rows) {

        /** Copies the lists. */
        public Table {
            align = List.copyOf(align);
            header = List.copyOf(header);
            rows = List.copyOf(rows.stream().map(List::copyOf).toList());
        }

        /** Returns the table as Markdown, one line each for the header, the separator and every row. */
        public String markdown() {
            StringBuilder out = new StringBuilder();
            line(out, header);
            List<String> separator = align.size() == header.size() ? align : header.stream().map(h -> "---").toList();
            out.append('|').append(String.join("|", separator)).append("|\n");
            rows.forEach(row -> line(out, row));
            return out.toString();
        }

        private static void line(StringBuilder out, List<String> cells) {
            out.append('|');
            cells.forEach(cell -> out.append(' ').append(cell).append(" |"));
            out.append('\n');
        }
    }

    /** Returns the Markdown tables in a bench's output, in the order printed. */
    public static List<Table> parse(List<String> lines) {
        List<Table> tables = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            if (i + 1 < lines.size() && isRow(lines.get(i)) && SEPARATOR.matcher(lines.get(i + 1).trim()).matches()) {
                String caption = caption(lines, i);
                List<String> header = cells(lines.get(i));
                List<String> align = cells(lines.get(i + 1));
                List<List<String>> rows = new ArrayList<>();
                int r = i + 2;
                while (r < lines.size() && isRow(lines.get(r))) {
                    rows.add(cells(lines.get(r)));
                    r++;
                }
                tables.add(new Table(caption, align, header, rows));
                i = r;
            } else {
                i++;
            }
        }
        return tables;
    }

    /** Writes tables to a TSV file in the class comment's form. */
    public static void writeTsv(List<Table> tables, Path file) throws IOException {
        List<String> out = new ArrayList<>();
        for (Table table : tables) {
            out.add(CAPTION + "\t" + clean(table.caption()));
            out.add(ALIGN + "\t" + tsv(table.align()));
            out.add(tsv(table.header()));
            table.rows().forEach(row -> out.add(tsv(row)));
            out.add("");
        }
        Files.write(file, out, StandardCharsets.UTF_8);
    }

    /** Reads the tables of a TSV file written by {@link #writeTsv}. */
    public static List<Table> readTsv(Path file) throws IOException {
        List<Table> tables = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int i = 0;
        while (i < lines.size()) {
            if (!lines.get(i).startsWith(CAPTION + "\t") || i + 2 >= lines.size()) {
                i++;
                continue;
            }
            String caption = after(lines.get(i), CAPTION);
            List<String> align = split(after(lines.get(i + 1), ALIGN));
            List<String> header = split(lines.get(i + 2));
            List<List<String>> rows = new ArrayList<>();
            int r = i + 3;
            while (r < lines.size() && !lines.get(r).isEmpty()) {
                rows.add(split(lines.get(r)));
                r++;
            }
            tables.add(new Table(caption, align, header, rows));
            i = r;
        }
        return tables;
    }

    private static String after(String line, String tag) {
        return line.startsWith(tag + "\t") ? line.substring(tag.length() + 1) : "";
    }

    private static boolean isRow(String line) {
        String trimmed = line.trim();
        return trimmed.length() > 1 && trimmed.startsWith("|") && trimmed.endsWith("|");
    }

    private static String caption(List<String> lines, int table) {
        for (int j = table - 1; j >= 0; j--) {
            String line = lines.get(j).trim();
            if (line.isEmpty()) {
                continue;
            }
            return line.startsWith("|") || line.startsWith("===") ? "" : line;
        }
        return "";
    }

    private static List<String> cells(String row) {
        String trimmed = row.trim();
        String inner = trimmed.substring(1, trimmed.length() - 1);
        return Arrays.stream(inner.split("\\|", -1)).map(String::trim).toList();
    }

    private static String tsv(List<String> cells) {
        return String.join("\t", cells.stream().map(BenchTables::clean).toList());
    }

    private static List<String> split(String line) {
        return List.of(line.split("\t", -1));
    }

    private static String clean(String cell) {
        return cell.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
