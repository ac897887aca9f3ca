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

    private static String text(Document doc, String expr) throws Exception {
        return XPathFactory.newInstance().newXPath().evaluate(expr, doc);
    }

    @Test
    void topologyNodesAreDrawnOneRowPerHostGroupedByBlock(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("tas.svg");
        assertThat(Sim.run("--chart", svg.toString(), "examples/gke-multislice-tas").exit()).isZero();
        Document doc = parse(svg);
        assertThat(count(doc, "//*[local-name()='g'][@class='nodes']")).isEqualTo(1);
        assertThat(text(doc, "//*[local-name()='g'][@class='nodes']/@data-topology")).isEqualTo("gke-tpu");
        assertThat(text(doc, "//*[local-name()='g'][@class='nodes']/@data-level")).isEqualTo("kubernetes.io/hostname");
        assertThat(count(doc, "//*[local-name()='g'][@class='domain-group']")).isEqualTo(2);
        assertThat(count(doc, "//*[local-name()='g'][@class='domain-group'][@data-domain='a']"
                + "/*[local-name()='g'][@class='domain']")).isEqualTo(8);
        assertThat(count(doc, "//*[local-name()='g'][@class='domain-group'][@data-domain='b']"
                + "/*[local-name()='g'][@class='domain']")).isEqualTo(4);
        // a1's hosts hold 2slice, then 3slice: taken all the run; b2's hosts never hold anything
        String a1 = "//*[local-name()='g'][@class='domain'][@data-domain='a/a1/gke-tpu-a1-0']";
        assertThat(count(doc, a1 + "/*[local-name()='rect'][@class='occupied']")).isEqualTo(1);
        assertThat(text(doc, a1 + "/*[local-name()='rect'][@class='occupied']/@fill-opacity")).isEqualTo("1.00");
        assertThat(count(doc, "//*[local-name()='g'][@class='domain'][@data-domain='b/b2/gke-tpu-b2-0']"
                + "/*[local-name()='rect'][@class='occupied']")).isZero();
        // b1's hosts hold 1slice for its 60s only: half the run
        String b1 = "//*[local-name()='g'][@class='domain'][@data-domain='b/b1/gke-tpu-b1-0']/*[local-name()='rect'][@class='occupied']";
        assertThat(Double.parseDouble(text(doc, b1 + "/@width"))).isEqualTo((SvgChart.WIDTH - SvgChart.LEFT - SvgChart.RIGHT) / 2.0);
    }

    @Test
    void aThousandNodesAreDrawnOneRowPerRack(@TempDir Path dir) throws Exception {
        Path svg = dir.resolve("big.svg");
        assertThat(Sim.run("-o", "json", "--chart", svg.toString(), "--generate", "kueue-tas", "--scale", "0.01",
                "--nodes", "blocks=8,racks=8,hosts=16").exit()).isZero();
        Document doc = parse(svg);
        String nodes = "//*[local-name()='g'][@class='nodes']";
        assertThat(text(doc, nodes + "/@data-nodes")).isEqualTo("1024");
        assertThat(text(doc, nodes + "/@data-level")).isEqualTo("cloud.google.com/gce-topology-subblock");
        assertThat(count(doc, "//*[local-name()='g'][@class='domain-group']")).isEqualTo(8);
        assertThat(count(doc, "//*[local-name()='g'][@class='domain']")).isEqualTo(64);
        assertThat(count(doc, "//*[local-name()='g'][@class='domain'][@data-nodes='16']")).isEqualTo(64);
        assertThat(count(doc, "//*[local-name()='rect'][@class='occupied']")).isPositive();
        assertThat(text(doc, nodes + "/*[local-name()='text']")).contains("one row per subblock (more than 128 hosts");
    }
}
