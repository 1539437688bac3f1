package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.Iterator;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.core.StateMachineAdapter;

import java.nio.ByteBuffer;

/** Applies tasks carrying one long each: counts them and sums their values. */
final class CountingStateMachine extends StateMachineAdapter {

    private volatile long applied;
    private volatile long sum;
    private volatile long lastIndex;

    @Override
    public void onApply(Iterator iter) {
        while (iter.hasNext()) {
            ByteBuffer data = iter.getData();
            if (data != null && data.remaining() == Long.BYTES) {
                sum += data.getLong(data.position());
                applied++;
            }
            lastIndex = iter.getIndex();
            if (iter.done() != null) {
                iter.done().run(Status.OK());
            }
            iter.next();
        }
    }

    long applied() {
        return applied;
    }

    long sum() {
        return sum;
    }

    long lastIndex() {
        return lastIndex;
    }
}
