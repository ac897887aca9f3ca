package dev.sluice.app;

import dev.sluice.OperatorLifecycle;
import dev.sluice.controller.ControllerRuntime;
import io.quarkus.arc.Arc;
import io.quarkus.test.junit.callback.QuarkusTestBeforeClassCallback;
import java.time.Duration;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Before each Quarkus test class: waits until the controller of the application under test has settled (started once
 * its HTTPS port listened, then standing by or leading with its first engine rebuilt), at most
 * {@code sluice.test.controller-settle-wait}. The application starts its controller after Quarkus reported it started,
 * so without this a test could look at a controller that has not begun; a test of the start itself sets the wait to 0.
 */
public class ControllerSettled implements QuarkusTestBeforeClassCallback {

    @Override
    public void beforeClass(Class<?> testClass) {
        Duration wait = ConfigProvider.getConfig().getOptionalValue("sluice.test.controller-settle-wait", Duration.class)
                .orElse(Duration.ZERO);
        if (wait.isZero() || Arc.container() == null) {
            return;
        }
        OperatorLifecycle lifecycle = Arc.container().instance(OperatorLifecycle.class).get();
        if (lifecycle == null || !lifecycle.mode().runsController()) {
            return;
        }
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            if (lifecycle.awaitStarted(wait)) {
                Arc.container().instance(ControllerRuntime.class).get()
                        .awaitSettled(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
