#include <sqlite3.h>

/// Turns off the checkpoint the last connection to a WAL database runs when it closes
/// (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`; `sqlite3_db_config` is variadic, which Swift does not call).
static inline int bgemu_sqlite3_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
