package io.kegdb.sql.calcite;

import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql2rel.SqlToRelConverter;

/**
 * The values an INSERT, UPSERT or UPDATE writes keep their own length on their way to a VARCHAR(n) or
 * VARBINARY(n) column. Calcite makes them the column's type with a CAST, twice over: the validator's implicit
 * cast of the source's columns, and SQL-to-relational conversion's cast of each VALUES item (which it may even
 * fold into a shortened literal). A CAST cuts a string silently; a store assignment is no CAST, and an
 * over-long value fails it (22001, as in H2). So here both are made to the column's type without its length,
 * and the write checks the length ({@code TableDef.checkedKey/checkedValue}), failing the statement before
 * anything is written, on every path planned through Calcite (multi-row VALUES, INSERT ... SELECT, UPDATE SET,
 * UPSERT, and the statements MERGE and the upsert forms are rewritten into). A DECIMAL(p,s) column's value is
 * cast to DECIMAL(max,s): Calcite's cast rounds it to the column's scale, as the write would, and the write
 * checks its digits, failing with 22003 naming the column rather than Calcite's cast failing without a name.
 */
final class StoreAssignment {

    private StoreAssignment() {
    }

    /**
     * {@code row} with each VARCHAR(n) and VARBINARY(n) column's length dropped and each DECIMAL's precision the
     * largest, other columns as they are.
     */
    static RelDataType withoutLengths(RelDataType row, RelDataTypeFactory factory) {
        RelDataTypeFactory.Builder b = factory.builder();
        for (RelDataTypeField field : row.getFieldList()) {
            RelDataType type = field.getType();
            if ((type.getSqlTypeName() == SqlTypeName.VARCHAR || type.getSqlTypeName() == SqlTypeName.VARBINARY)
                    && type.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED) {
                type = factory.createTypeWithNullability(factory.createSqlType(type.getSqlTypeName()),
                        type.isNullable());
            } else if (type.getSqlTypeName() == SqlTypeName.DECIMAL) {
                // The scale stays (the cast rounds to it); the digits are the write's to check, naming the column.
                type = factory.createTypeWithNullability(factory.createSqlType(SqlTypeName.DECIMAL,
                        factory.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL), type.getScale()),
                        type.isNullable());
            }
            b.add(field.getName(), type);
        }
        return b.build();
    }

    /** The validator's implicit casts, with an INSERT's or UPDATE's source cast to its target without lengths. */
    static final class Coercion extends TypeCoercionImpl {

        Coercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
            super(typeFactory, validator);
        }

        @Override
        public boolean querySourceCoercion(SqlValidatorScope scope, RelDataType sourceRowType,
                                           RelDataType targetRowType, SqlNode query) {
            return super.querySourceCoercion(scope, sourceRowType, withoutLengths(targetRowType, factory), query);
        }
    }

    /** Calcite's SQL-to-relational conversion, with an INSERT's source converted to its table's types without lengths. */
    static final class Converter extends SqlToRelConverter {

        /** The INSERT being converted, whose source is about to be. */
        private SqlInsert insert;

        Converter(RelOptTable.ViewExpander viewExpander, SqlValidator validator, Prepare.CatalogReader catalogReader,
                  RelOptCluster cluster, SqlRexConvertletTable convertletTable, Config config) {
            super(viewExpander, validator, catalogReader, cluster, convertletTable, config);
        }

        @Override
        protected RelNode convertInsert(SqlInsert call) {
            SqlInsert outer = insert;
            insert = call;
            try {
                return super.convertInsert(call);
            } finally {
                insert = outer;
            }
        }

        @Override
        protected RelRoot convertQueryRecursive(SqlNode query, boolean top, RelDataType targetRowType) {
            if (insert != null && query == insert.getSource() && targetRowType != null) {
                targetRowType = withoutLengths(targetRowType, typeFactory);
            }
            return super.convertQueryRecursive(query, top, targetRowType);
        }
    }
}
