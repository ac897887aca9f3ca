package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/** The chart is well-formed SVG with one bar per workload and one usage panel per quota. */
class SvgChartTest {

    private static Document parse(Path svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(svg.toFile());
    }

    private static int count(Document doc, String expr) throws Exception {
        return ((NodeList) XPathFactory.newInstance().newXPath().evaluate(expr, doc, XPathConstants.NODESET)).getLength();
    }

    @Test
    void preemptionChartHasOneBarPerWorkloadAndShowsThePreemptedRun(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("run.svg");
        Sim sim = Sim.run("--chart", svg.toString(), "examples/preemption");
        assertThat(sim.exit()).isZero();
        Document doc = parse(svg);
        assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
        assertThat(count(doc, "//*[local-name()='g'][@class='workload']")).isEqualTo(2);
        assertThat(count(doc, "//*[local-name()='g'][@class='usage']")).isEqualTo(1);
        assertThat(count(doc, "//*[local-name()='g'][@class='workload']/*[local-name()='rect'][@fill='" + SvgChart.PREEMPTED + "']")).isEqualTo(1);
        assertThat(Files.readString(svg)).contains("JobSet/default/multislice-3slice: submitted 0s, first admitted 0s, "
                + "finished 140s, preempted 1x");
    }

    @Test
    void generatedRunOfSomeHundredWorkloadsStaysWellFormed(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("bench.svg");
        assertThat(Sim.run("-o", "json", "--chart", svg.toString(), "--generate", "kueue-baseline", "--scale", "0.02")
                .exit()).isZero();
        Document doc = parse(svg);
        assertThat(count(doc, "//*[local-name()='g'][@class='workload']")).isEqualTo(300);
        assertThat(count(doc, "//*[local-name()='g'][@class='usage']")).isEqualTo(30);
    }
}
