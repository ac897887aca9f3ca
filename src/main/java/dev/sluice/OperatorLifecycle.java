package dev.sluice;

import io.javaoperatorsdk.operator.Operator;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Starts the operator when the mode includes the controller. QOSDK fixes {@code start-operator} at build time, so
 * the jar is built with it off and the mode decides at run time; in webhook mode the operator bean is never
 * touched and no cluster connection is made.
 */
@ApplicationScoped
public class OperatorLifecycle {

    private static final Logger LOG = Logger.getLogger(OperatorLifecycle.class);

    private final SluiceMode mode;
    private final Instance<Operator> operator;

    public OperatorLifecycle(@ConfigProperty(name = "sluice.mode", defaultValue = "all") SluiceMode mode,
            Instance<Operator> operator) {
        this.mode = mode;
        this.operator = operator;
    }

    void onStart(@Observes StartupEvent event) {
        LOG.infof("Sluice mode: %s", mode);
        if (mode.runsController()) {
            operator.get().start();
        }
    }

    void onStop(@Observes ShutdownEvent event) {
        if (mode.runsController()) {
            operator.get().stop();
        }
    }

    public SluiceMode mode() {
        return mode;
    }
}
