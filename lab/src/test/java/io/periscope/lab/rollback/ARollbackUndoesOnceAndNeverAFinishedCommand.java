package io.periscope.lab.rollback;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The undo of an unfinished lab command: once, on a thread of its own, never halfway through a step,
 * never after the last step; steps after it began are refused.
 */
class ARollbackUndoesOnceAndNeverAFinishedCommand {

    private final List<String> undone = new CopyOnWriteArrayList<>();
    private final List<String> reported = new CopyOnWriteArrayList<>();

    @Test
    void aFailedStepIsUndoneOnceOnAnotherThreadAndNoStepFollows() {
        List<Thread> undoThreads = new CopyOnWriteArrayList<>();
        try (LabRollback rollback = LabRollback.arm(why -> {
            undone.add(why);
            undoThreads.add(Thread.currentThread());
        }, reported::add, "run 'lab down f.yaml'")) {
            rollback.run(() -> { });
            rollback.undoNow();
            rollback.undoNow();

            assertThat(undone).containsExactly(LabRollback.FAILED);
            assertThat(undoThreads).doesNotContain(Thread.currentThread());
            assertThatThrownBy(() -> rollback.run(() -> undone.add("a step after the undo"))).isInstanceOf(LabRollback.RolledBack.class);
            assertThat(undone).containsExactly(LabRollback.FAILED);
        }
    }

    @Test
    void aFinishedCommandIsNotUndone() {
        try (LabRollback rollback = LabRollback.arm(undone::add, reported::add, "")) {
            rollback.finish(() -> { });
            rollback.undoNow();
        }
        assertThat(undone).isEmpty();
    }

    @Test
    void aRollbackClosedBeforeItsUndoKeepsTheExitsHookUntilTheUndoIsDone() {
        // What 'try (rollback) { ... } catch (e) { rollback.undoNow(); }' does: the close comes first.
        LabRollback rollback = LabRollback.arm(undone::add, reported::add, "");
        rollback.run(() -> { });
        rollback.close();

        assertThat(rollback.armed()).as("a signal now still finds the hook, which runs or waits for the undo").isTrue();
        rollback.undoNow();
        assertThat(undone).containsExactly(LabRollback.FAILED);
        assertThat(rollback.armed()).isFalse();
    }

    @Test
    void aFinishedOrUndoneCommandLeavesNoHook() {
        LabRollback finished = LabRollback.arm(undone::add, reported::add, "");
        finished.finish(() -> { });
        finished.close();
        LabRollback undoneFirst = LabRollback.arm(undone::add, reported::add, "");
        undoneFirst.undoNow();
        undoneFirst.close();

        assertThat(finished.armed()).isFalse();
        assertThat(undoneFirst.armed()).isFalse();
    }

    @Test
    void theUndoWaitsForTheStepItInterrupts() throws Exception {
        CountDownLatch inStep = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        try (LabRollback rollback = LabRollback.arm(why -> order.add("undo"), reported::add, "")) {
            Thread command = Thread.ofPlatform().start(() -> {
                try {
                    rollback.run(() -> {
                        inStep.countDown();
                        try {
                            Thread.sleep(60_000);
                        } catch (InterruptedException e) {
                            order.add("step interrupted");
                        }
                        order.add("step ended");
                    });
                } catch (LabRollback.RolledBack ignored) {
                    // not reached: the step began before the undo
                }
            });
            assertThat(inStep.await(10, TimeUnit.SECONDS)).isTrue();
            rollback.undoNow();
            command.join(10_000);
        }
        assertThat(order).containsExactly("step interrupted", "step ended", "undo");
    }

    @Test
    void anUndoThatKeepsFailingSaysWhatToDo() {
        try (LabRollback rollback = LabRollback.arm(why -> {
            undone.add(why);
            throw new IllegalStateException("namespaces could not be removed: psc-aece28-a");
        }, reported::add, "remove what is left with 'lab down f.yaml'")) {
            rollback.undoNow();
        }
        assertThat(undone).hasSize(3);
        assertThat(reported).singleElement().asString().contains("namespaces could not be removed: psc-aece28-a")
                .contains("remove what is left with 'lab down f.yaml'");
    }
}
