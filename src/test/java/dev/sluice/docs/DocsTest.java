package dev.sluice.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.sim.SimulateCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and docs/ as a reader meets them: every link between pages lands on a page and heading that exist, every
 * pointer from the code, the chart and the scripts to a page ("see docs/x.md "Heading"") still names one, every
 * simulate command of the pages runs, and the paths, Maven profiles, test classes and chart values the other commands
 * name exist. Commands that need a cluster (helm, kubectl) cannot run here; what they name is checked instead.
 */
class DocsTest {

    private static final Pattern FENCE = Pattern.compile("^\\s*```(\\w*)\\s*$");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
    /** docs/page.md, optionally followed by 's and a quoted heading (the quotes escaped in Java strings). */
    private static final Pattern DOCS_REFERENCE =
            Pattern.compile("docs/([\\w-]+\\.md)(#[\\w-]+)?(?:'s)?(?: \\\\?\"([^\"\\\\]+)\\\\?\")?");
    private static final Pattern README_REFERENCE = Pattern.compile("README(?:\\.md)?(?:'s)? \\\\?\"([^\"\\\\]+)\\\\?\"");
    private static final String SIMULATE = "java -jar target/quarkus-app/quarkus-run.jar simulate";

    /** The pages a reader opens: the README, docs/, and the READMEs and results beside the examples and scripts. */
    static List<Path> pages() {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md"), Path.of("webhooks", "README.md"),
                Path.of("bench", "RESULTS.md")));
        pages.addAll(files(Path.of("docs"), ".md"));
        pages.addAll(files(Path.of("examples"), "README.md"));
        return pages;
    }

    @Test
    void everyLinkBetweenPagesLandsOnAPageAndHeadingThatExist() {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String target : links(page)) {
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : normal(page.toAbsolutePath().getParent().resolve(file));
                if (!Files.exists(resolved)) {
                    broken.add(page + ": (" + target + "): no file " + resolved);
                } else if (hash >= 0 && !anchors(resolved).contains(target.substring(hash + 1))) {
                    broken.add(page + ": (" + target + "): no heading with anchor #" + target.substring(hash + 1)
                            + " in " + file + "; its anchors: " + anchors(resolved));
                }
            }
        }
        assertThat(broken).as("links of the pages").isEmpty();
    }

    @Test
    void everyPointerFromTheProjectToAPageNamesOneThatExists() {
        Set<String> readmeHeadings = headings(Path.of("README.md"));
        List<String> broken = new ArrayList<>();
        for (Path file : projectFiles()) {
            String text = read(file);
            Matcher docs = DOCS_REFERENCE.matcher(text);
            while (docs.find()) {
                Path page = Path.of("docs", docs.group(1));
                if (!Files.exists(page)) {
                    broken.add(file + ": " + docs.group() + ": no page " + page);
                } else if (docs.group(2) != null && !anchors(page).contains(docs.group(2).substring(1))) {
                    broken.add(file + ": " + docs.group() + ": no heading with that anchor in " + page);
                } else if (docs.group(3) != null && !headings(page).contains(docs.group(3))) {
                    broken.add(file + ": " + docs.group() + ": no heading \"" + docs.group(3) + "\" in " + page
                            + "; its headings: " + headings(page));
                }
            }
            Matcher readme = README_REFERENCE.matcher(text);
            while (readme.find()) {
                if (!readmeHeadings.contains(readme.group(1))) {
                    broken.add(file + ": " + readme.group() + ": README.md has no heading \"" + readme.group(1)
                            + "\" (the manuals are in docs/: point at the page that holds it)");
                }
            }
        }
        assertThat(broken).as("pointers to pages").isEmpty();
    }

    @Test
    void everySimulateCommandOfThePagesRuns() {
        List<String> ran = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (Path page : pages()) {
            for (String command : commands(page)) {
                if (!command.startsWith(SIMULATE + " ") || isSynopsis(command) || command.contains("--serve")) {
                    continue; // a synopsis is not a command; --serve runs until Ctrl-C (SimulateServeBrowserTest)
                }
                String[] args = command.substring(SIMULATE.length()).trim().split("\\s+");
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int exit = SimulateCommand.run(args, new PrintStream(OutputStream.nullOutputStream()),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                ran.add(command);
                if (exit != 0) {
                    failed.add(page + ": " + command + " -> exit " + exit + ": " + err.toString(StandardCharsets.UTF_8));
                }
            }
        }
        assertThat(failed).as("simulate commands of the pages").isEmpty();
        assertThat(ran).as("the pages' simulate commands, the README's own among them")
                .contains(SIMULATE + " examples/gke-multislice");
    }

    @Test
    void everyPathProfileTestAndChartValueTheCommandsNameExists() throws IOException {
        JsonNode values = new YAMLMapper().readTree(Path.of("helm", "sluice", "values.yaml").toFile());
        String pom = read(Path.of("pom.xml"));
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String command : commands(page)) {
                if (isSynopsis(command)) {
                    continue;
                }
                String[] tokens = command.split("\\s+");
                for (int i = 0; i < tokens.length; i++) {
                    String t = tokens[i].replaceAll("[;,)]+$", "");
                    if (t.matches("(helm|examples|src|bench|webhooks|docs)/[^<>*$]*") && !Files.exists(Path.of(t))) {
                        broken.add(page + ": " + command + ": no " + t);
                    }
                    if (command.startsWith("./mvnw") && t.startsWith("-P")
                            && !pom.contains("<id>" + t.substring(2) + "</id>")) {
                        broken.add(page + ": " + command + ": pom.xml has no profile " + t.substring(2));
                    }
                    if (command.startsWith("./mvnw") && t.startsWith("-Dtest=")) {
                        for (String name : t.substring("-Dtest=".length()).replace("'", "").split(",")) {
                            if (files(Path.of("src", "test", "java"), "/" + name + ".java").isEmpty()) {
                                broken.add(page + ": " + command + ": no test class " + name);
                            }
                        }
                    }
                    if (command.startsWith("helm ") && t.equals("--set") && i + 1 < tokens.length) {
                        String key = tokens[i + 1].substring(0, Math.max(0, tokens[i + 1].indexOf('=')));
                        JsonNode at = values;
                        for (String part : key.split("\\.")) {
                            at = at.path(part);
                        }
                        if (key.isEmpty() || at.isMissingNode()) {
                            broken.add(page + ": " + command + ": helm/sluice/values.yaml has no value " + key);
                        }
                    }
                }
            }
        }
        assertThat(broken).as("what the pages' commands name").isEmpty();
    }

    // ---- reading pages ----

    /** The command lines of the page's sh blocks: continuations joined, comments and comment lines dropped. */
    static List<String> commands(Path page) {
        List<String> out = new ArrayList<>();
        boolean inSh = false;
        boolean inOther = false;
        StringBuilder pending = new StringBuilder();
        for (String line : read(page).split("\n")) {
            Matcher fence = FENCE.matcher(line);
            if (fence.matches()) {
                if (inSh || inOther) {
                    inSh = inOther = false;
                } else if (fence.group(1).equals("sh") || fence.group(1).equals("shell")) {
                    inSh = true;
                } else {
                    inOther = true;
                }
                continue;
            }
            if (!inSh || line.isBlank() || line.trim().startsWith("#")) {
                continue;
            }
            String code = line.replaceFirst("\\s+#\\s.*$", "").trim();
            if (code.endsWith("\\")) {
                pending.append(code, 0, code.length() - 1).append(' ');
                continue;
            }
            out.add((pending + code).replaceAll("\\s+", " ").trim());
            pending.setLength(0);
        }
        return out;
    }

    private static boolean isSynopsis(String command) {
        return command.contains("[") || command.contains("|") || command.contains("PATH") || command.contains("...");
    }

    /** Link targets outside code blocks and code spans. */
    private static List<String> links(Path page) {
        List<String> out = new ArrayList<>();
        for (String line : prose(page)) {
            Matcher m = LINK.matcher(INLINE_CODE.matcher(line).replaceAll(""));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** The page's headings as written, without code marks. */
    private static Set<String> headings(Path page) {
        return new LinkedHashSet<>(headingsInOrder(page));
    }

    /** The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces as '-', repeats -1, -2. */
    static Set<String> anchors(Path page) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String heading : headingsInOrder(page)) {
            StringBuilder slug = new StringBuilder();
            heading.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
                if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                    slug.appendCodePoint(c);
                } else if (c == ' ') {
                    slug.append('-');
                }
            });
            String base = slug.toString();
            int n = seen.merge(base, 1, Integer::sum) - 1;
            out.add(n == 0 ? base : base + "-" + n);
        }
        return out;
    }

    private static List<String> headingsInOrder(Path page) {
        List<String> out = new ArrayList<>();
        for (String line : prose(page)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                out.add(m.group(2).replace("`", ""));
            }
        }
        return out;
    }

    /** The page's lines outside fenced code blocks. */
    private static List<String> prose(Path page) {
        if (!page.toString().endsWith(".md")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        boolean inCode = false;
        for (String line : read(page).split("\n")) {
            if (FENCE.matcher(line).matches()) {
                inCode = !inCode;
            } else if (!inCode) {
                out.add(line);
            }
        }
        return out;
    }

    /** Files that may point at a page: code, chart, scripts, CI and the pages themselves (not this test). */
    private static List<Path> projectFiles() {
        List<Path> out = new ArrayList<>(pages());
        for (String dir : List.of("src/main", "src/test", "helm", "webhooks", "bench", "examples", ".ci")) {
            for (Path p : files(Path.of(dir), "")) {
                String name = p.toString();
                if (name.matches(".*\\.(java|properties|ya?ml|tpl|txt|sh|json|md)$|.*/\\.ci/run$|^\\.ci/run$")
                        && !name.endsWith("DocsTest.java") && !out.contains(p)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    private static List<Path> files(Path dir, String suffix) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path normal(Path absolute) {
        return Path.of("").toAbsolutePath().relativize(absolute.normalize());
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(file.toString(), e);
        }
    }
}
