#pragma once
// OpenSSL's libcrypto (Debian's libssl-dev): the EVP digest calls, for SHA-256.
#include <openssl/evp.h>
