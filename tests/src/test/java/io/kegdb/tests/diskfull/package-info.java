/**
 * A store on a real filesystem that runs out of space (a small tmpfs; needs root, skipped otherwise): writes
 * fail with a precise error, nothing acknowledged is lost, and the store works again once space returns.
 */
package io.kegdb.tests.diskfull;
