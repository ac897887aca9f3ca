/**
 * The controller's door. {@link dev.sluice.controller.ControllerRuntime} runs the controller when the mode includes
 * it: leader election ({@code controller.lease}), and while leading one term ({@code controller.session}) whose
 * engine loop ({@code controller.sync}) reconciles the cluster. {@link dev.sluice.controller.LiveState} is what a
 * reader may look at, on the engine thread, during one {@code ControllerRuntime.read} call. Beside them the health
 * checks, the controller's clock, and the WorkloadPriorityClass reconciler that feeds the runtime.
 * <p>
 * The wings (visibility API, forecast, dashboard) read the controller only through {@code ControllerRuntime} and
 * {@code LiveState}. The rooms below, top floor first: {@code sync}, {@code queues}, {@code session}, {@code write},
 * {@code cache}, {@code store}, {@code conditions}; {@code lease} beside them. Each imports only rooms below it, and
 * none imports this package or a wing.
 */
package dev.sluice.controller;
