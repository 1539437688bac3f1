package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.entity.PeerId;

/** Delivers a {@link KvRequest} to one node and waits for its answer. */
public interface Transport {

    /**
     * @throws com.alipay.sofa.jraft.error.ConnectionFailureException when the request never left (not sent)
     * @throws Exception any other failure: the request may have been received
     */
    KvResponse send(PeerId target, KvRequest request, long timeoutMs) throws Exception;
}
