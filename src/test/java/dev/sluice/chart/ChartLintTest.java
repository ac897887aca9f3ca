package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;

class ChartLintTest {

    @Test
    void helmLintStrictIsClean() {
        LintResult result = new Helm(Chart.DIR).lint().strict().call();
        assertThat(result.getMessages()).as("helm lint --strict").noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
        assertThat(result.isFailed()).isFalse();
    }
}
