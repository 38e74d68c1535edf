package io.ankusa.store.lmdb;

import io.ankusa.store.FamilyKind;
import org.lmdbjava.Dbi;

/**
 * A declared family and the LMDB named database that holds it.
 *
 * @param name the family's name (also the database's name)
 * @param kind plain values or counters
 * @param dbi  the open database handle, valid for the life of the environment
 */
record Family(String name, FamilyKind kind, Dbi<byte[]> dbi) {
}
