package io.kegdb.bench.txn;

/**
 * What one bank run did: transfers committed, audits committed and those of them that saw a total other than
 * {@link BankTransfers#TOTAL}, the total afterwards, transactions retried after a conflict, and the run's length.
 */
record BankResult(long transfers, long audits, long badAudits, long finalTotal, long retries, double seconds)
        implements WorkloadOutcome {

    @Override
    public long committed() {
        return transfers + audits;
    }

    /** With audits, how many were wrong; without, where the total ended. */
    @Override
    public String finding() {
        String total = String.format("total ended at %,d", finalTotal);
        return audits == 0 ? total : String.format("%,d of %,d audits saw ≠ %,d (%s)", badAudits, audits,
                BankTransfers.TOTAL, total);
    }
}
