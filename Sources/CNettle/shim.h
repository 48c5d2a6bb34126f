#pragma once
// Nettle (Debian's nettle-dev): its SHA-256. libmicrohttpd's TLS stack loads libnettle anyway,
// so the digest costs no library of its own (OpenSSL's libcrypto cost 3.4 MiB resident).
#include <nettle/sha2.h>
