/** md5, sha1, base64_encode, hash, hash_hmac (spec 02 §11.4, §11.9); vectors are PHP 7.4 outputs. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApplicationError } from '../../src/errors/ApplicationError.ts';
import { phpBytes } from '../../src/functions/convert.ts';
import { call, f, fn, obj } from './helpers.ts';

describe('md5() / sha1() / base64_encode()', () => {
  it('matches the spec examples', () => {
    assert.equal(call('md5', 'NotSoSecret'), '1228d3ff5089f27721f1e0403ad86e73');
    assert.equal(call('sha1', 'NotSoSecret'), '64d5d2977cc2573afbd187ff5e71d1529fd7f6d8');
    assert.equal(call('base64_encode', 'TeaPot'), 'VGVhUG90');
  });
  it('matches the RFC vectors', () => {
    assert.equal(call('md5', ''), 'd41d8cd98f00b204e9800998ecf8427e');
    assert.equal(call('md5', 'abc'), '900150983cd24fb0d6963f7d28e17f72');
    assert.equal(call('sha1', 'abc'), 'a9993e364706816aba3e25717850c26c9cd0d89d');
    assert.equal(call('base64_encode', ''), '');
    assert.equal(call('base64_encode', 'f'), 'Zg==');
    assert.equal(call('base64_encode', 'fo'), 'Zm8=');
    assert.equal(call('base64_encode', 'foo'), 'Zm9v');
  });
  it('hashes the UTF-8 bytes and PHP string forms', () => {
    assert.equal(call('base64_encode', 'é'), 'w6k=');
    assert.equal(call('md5', 12), call('md5', '12'));
    assert.equal(call('md5', f(0.1 + 0.2)), call('md5', '0.3'));
    assert.equal(call('md5', true), call('md5', '1'));
    assert.equal(call('md5', null), call('md5', ''));
  });
  it('returns raw bytes with raw_output; they survive base64_encode', () => {
    assert.equal(call('base64_encode', fn('md5', 'x', true)), 'ndTkYSaMgDT1yFZOFVxnpg==');
    assert.equal(phpBytes(call('sha1', 'abc', 1) as string).toString('hex'), 'a9993e364706816aba3e25717850c26c9cd0d89d');
    assert.equal(call('base64_encode', fn('hash_hmac', 'sha256', 'data', 'key', true)), 'UDH+PZicbRU3oBP6bnOdojRj/a7DtwE32Cjjas4iG9A=');
  });
  it('yields null for lists, objects and bad argument counts (PHP warnings)', () => {
    assert.equal(call('md5', []), null);
    assert.equal(call('md5', obj({ a: 1 })), null);
    assert.equal(call('md5'), null);
    assert.equal(call('md5', 'a', false, 3), null);
    assert.equal(call('sha1', ['x']), null);
    assert.equal(call('base64_encode', 'a', 'b'), null);
    assert.equal(call('base64_encode', [1]), null);
  });
});

describe('hash() / hash_hmac()', () => {
  it('matches the spec examples', () => {
    assert.equal(
      call('hash_hmac', 'sha256', '12345abcd5678efgh90ijk', 'TeaPot'),
      'd868d581b2f2edd09e8e7ce12c00723b3fcffb6a5d74c40eae9d94181a0bf731',
    );
    assert.equal(call('hash', 'crc32b', 'abc'), '352441c2');
    assert.equal(call('hash', 'crc32', 'abc'), '73bb8c64');
  });
  it('accepts algorithm names in any case', () => {
    assert.equal(call('hash', 'CRC32B', 'abc'), '352441c2');
    assert.equal(
      call('hash_hmac', 'SHA256', '12345abcd5678efgh90ijk', 'TeaPot'),
      'd868d581b2f2edd09e8e7ce12c00723b3fcffb6a5d74c40eae9d94181a0bf731',
    );
  });
  it('yields false for unknown algorithms and checksums in hash_hmac', () => {
    assert.equal(call('hash', 'nope', 'abc'), false);
    assert.equal(call('hash', 'xxh64', 'abc'), false);
    assert.equal(call('hash', 'murmur3a', 'abc'), false);
    assert.equal(call('hash_hmac', 'crc32b', 'abc', 'k'), false);
    assert.equal(call('hash_hmac', 'joaat', 'abc', 'k'), false);
  });
  it('yields null for bad arguments', () => {
    assert.equal(call('hash', 'md5'), null);
    assert.equal(call('hash', ['md5'], 'x'), null);
    assert.equal(call('hash_hmac', 'md5', 'x'), null);
  });
  it('uses long HMAC keys hashed first (RFC 4231 case 6)', () => {
    const key = '\udcaa'.repeat(131); // 131 bytes 0xaa
    assert.equal(
      call('hash_hmac', 'sha256', 'Test Using Larger Than Block-Size Key - Hash Key First', key),
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    );
  });
  it('treats snefru as a known algorithm that is not implemented (internal error)', () => {
    assert.throws(() => call('hash', 'snefru', 'abc'), ApplicationError);
  });

  // hash(algo, "The quick brown fox jumps over the lazy dog"), hash_hmac(algo, "message", "secret key")
  const table: Array<[string, string, string | false]> = [
    ['md2', '03d85a0d629d2c442e987525319fc471', '3e57ead0047ecb2d36505f5a856f16b1'],
    ['md4', '1bee69a46ba811185c194762abaeae90', '4c63c0ec0837507acee411ba00cdd83e'],
    ['md5', '9e107d9d372bb6826bd81d3542a419d6', 'e555402fb46a4a420b4baeeede790a5b'],
    ['sha1', '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12', 'd28357d572054fc63b64df58605f1c234088c39d'],
    ['sha224', '730e109bd7a8a32b1cb9d9a09aa2325d2430587ddbc0c38bad911525', '3ca15593dab9ce83a2c7d33948928ae9f7245d0f0ae88179ea577ff4'],
    [
      'sha256',
      'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
      'c431e4857a6b817f9eeaab86b00f78e210808e5a2b2ae1e5bb6befb213608eed',
    ],
    [
      'sha384',
      'ca737f1014a48f4c0b6dd43cb177b0afd9e5169367544c494011e3317dbf9a509cb1e5dc1e85a941bbee3d7f2afbc9b1',
      '4b1640045c18e74120c12c84a85ab7968910e476aedd22ba1fe448c579c15eafd768e92d81d153d3dd2082aec1c92aa2',
    ],
    ['sha512/224', '944cd2847fb54558d4775db0485a50003111c8e5daa63fe722c6aa37', '0be65f6813881d729ca98e46b221cd8d65225fa7dca7b1495f22ec1a'],
    [
      'sha512/256',
      'dd9d67b371519c339ed8dbd25af90e976a1eeefd4ad3d889005e532fc5bef04d',
      'e8b0c2e0986081610835aa7f66d8a5fefc3d596c2c033857bf4ae102684544ab',
    ],
    [
      'sha512',
      '07e547d9586f6a73f73fbac0435ed76951218fb7d0c8d788a309d785436bbb642e93a252a954f23912547d1e8a3b5ed6e1bfd7097821233fa0538f3db854fee6',
      '5173932710f9b31fe5c8302bf4ef56b5aa95ef5e297e4cfb59e624b5d2a080b105551323d4860296a5a32aaf67315668d4adda703a0dbba65b0621cbaf0176f2',
    ],
    ['sha3-224', 'd15dadceaa4d5d7bb3b48f446421d542e08ad8887305e28d58335795', 'b8d6d732d87b769fd52b9be56183ab95c9f85035d3337c7510346ab0'],
    [
      'sha3-256',
      '69070dda01975c8c120c3aada1b282394e7f032fa9cf32f4cb2259a0897dfc04',
      '64cb372a720e05aee25043558f26a58a907eea6281700a5bb160bd60c3d214aa',
    ],
    [
      'sha3-384',
      '7063465e08a93bce31cd89d2e3ca8f602498696e253592ed26f07bf7e703cf328581e1471a7ba7ab119b1a9ebdf8be41',
      '81ea2a096e413866185bf47185f78d715b060057ea68b71cfac75e258bb000899a249da6b8d7c43692aca5e8731f3e58',
    ],
    [
      'sha3-512',
      '01dedd5de4ef14642445ba5f5b97c15e47b9ad931326e4b0727cd94cefc44fff23f07bf543139939b49128caf436dc1bdee54fcb24023a08d9403f9b4bf0d450',
      '7828bf2fa64952cf739ae5caa6abff5791be51f0d005da6203e0a64f82573ed1a1f311e3b18d13aebef5c0aaafd9e6b8a53f519ed5c4d9c22006cf3e96bd9e9b',
    ],
    ['ripemd128', '3fa9b57f053c053fbe2735b2380db596', '689dacbb98cf70607251f21343cf25ca'],
    ['ripemd160', '37f332f68db77bd9d7edd4969571ad671cf9dd3b', '8fdf75f0889640fe3735b10e1c0cc24265a6db96'],
    [
      'ripemd256',
      'c3b0c2f764ac6d576a6c430fb61a6f2255b4fa833e094b1ba8c1e29b6353036f',
      'b365fac2f3ce72e637bebfe7d8d72435ae21be0d82323495216a98f0ca97287b',
    ],
    [
      'ripemd320',
      'e7660e67549435c62141e51c9ab1dcc3b1ee9f65c0b3e561ae8f58c5dba3d21997781cd1cc6fbc34',
      'df74b02dc69ba3f122621c9a23c26970e33e991331782f4938f146789365b2fa0093179e9b0d251e',
    ],
    [
      'whirlpool',
      'b97de512e91e3828b40d2b0fdce9ceb3c4a71f9bea8d88e75c4fa854df36725fd2b52eb6544edcacd6f8beddfea403cb55ae31f03ad62a5ef54e42ee82c3fb35',
      'a0ab6783c2a50f6fa00d29a04651000c3a2c91ae71cf04b2f4d10ed9aa7bf474b76b4185372740798e7ca1f6eaccef8a2b2c70f3e7110a4d243c7a7f0bbc604e',
    ],
    ['tiger128,3', '6d12a41e72e644f017b6f0e2f7b44c62', 'e6d8a1ac27b057a669656cd355a9cbe5'],
    ['tiger160,3', '6d12a41e72e644f017b6f0e2f7b44c6285f06dd5', 'cb8fde5e2f2d9fdd0d215b99f2b2b53ea3452633'],
    ['tiger192,3', '6d12a41e72e644f017b6f0e2f7b44c6285f06dd5d2c5b075', 'f8e7967a233eccb6bdfdaeb3a7fec7234565669cd58ce5bc'],
    ['tiger128,4', 'c1f3a704e9f6267e9f75fa47191f83c3', 'c063ea5d7d2a56b18b6f26b590ccec7d'],
    ['tiger160,4', 'c1f3a704e9f6267e9f75fa47191f83c354100a04', '9e223717bcbcc102c846d191f3730c6e09d82bd2'],
    ['tiger192,4', 'c1f3a704e9f6267e9f75fa47191f83c354100a04c4f1dc6f', 'f3487dc342c6c10ce69c8bb41d7bc4fdd958de9004d6ce21'],
    [
      'gost',
      '77b7fa410c9ac58a25f49bca7d0468c9296529315eaca76bd1a10f376d1f4294',
      '8715dc0dde4bd8afc14ccaf7a15f9cd13e6ad3ebd487a564b2dcba63af0cf9c1',
    ],
    [
      'gost-crypto',
      '9004294a361a508c586fe53d1f1b02746765e71b765472786e4770d565830a76',
      '5273ff101cdf1ecde432bca31ff2824bbe05558326149730a4bb94b5adae5b86',
    ],
    ['adler32', '5bdc0fda', false],
    ['crc32', '61ee9d45', false],
    ['crc32b', '414fa339', false],
    ['crc32c', '22620404', false],
    ['fnv132', 'e9c86c6e', false],
    ['fnv1a32', '048fff90', false],
    ['fnv164', 'a8b2f3117de37ace', false],
    ['fnv1a64', 'f3f9b7f5e7e47110', false],
    ['joaat', '519e91f5', false],
    ['haval128,3', '713502673d67e5fa557629a71d331945', '79dbde243aec5a69bb7d0d8d75ecfd72'],
    ['haval160,3', 'b338ac397e8bccadcccd96549cadd4882d834107', '0602fc7eb3acb751de05c0c86cce63b201ea6c3d'],
    ['haval192,3', '58e6ced002e311172483d434ba738ad033e7fa950e431503', '97e932ac42eedddf5bfefa8d917b6b8f892d34738434aa59'],
    ['haval224,3', 'e1d5792306f56b22419662b06d1885a66dca3eba01f53274c89aeaeb', '63b1613479e5852828bb3b49961bd0a2b2c5820d825b4a45230b95f9'],
    [
      'haval256,3',
      '9446028f42b3768a41bd873ca69b0c006341d986613567f39eb61f96ca683300',
      '6e9e3de12273f003df6ed72180cdf3f1f290fb60402d9ec35911126190b93323',
    ],
    ['haval128,4', '6eece560a2e8d6b919e81fe91b0e7156', '297581d8d59cf84c2428573c3840d2ca'],
    ['haval160,4', '6e739d01f5739ceed94da1a115b52d5951280560', '435f16b650d2599dfcae38beb1c3dc1f6e52e0ad'],
    ['haval192,4', '228ee09bc7e36151c6f285f558e6aede66ad38c8341592b9', '76f13326a8a7798580b3c165fa13ab15901408cac5ca80d2'],
    ['haval224,4', 'dddd6689885f6db4ad91e35a35e1f4498446510df798d4fd54b8654f', '06f6de060a86b7510be932d510b3f9684cd95dc307aff8e79cbeb2ab'],
    [
      'haval256,4',
      'c0d4c6ea514105fd1a9c38a238553fb7fa21d4127eb1a3035a75ce9d06a83d96',
      '3b50bdfc13ddbd1e867df9aaa5c151eedac2e23cb99e9f3153dd23c81103ce39',
    ],
    ['haval128,5', '696f02111f2e1da5c21d50eb782b7e8f', 'd756edcddcc58485229725f6acc3b078'],
    ['haval160,5', 'ecce9fa8a428866304ff082af2f9062637d36b23', '39b6bc2da6c9619400facab265935491bcf652c8'],
    ['haval192,5', '023d045f75d4bf051fd6e50f7b7417bf9949c4b5d2b4b7ef', '5b5285dc4a3f53dd70803fd429abf3e6ea4c7492783e460f'],
    ['haval224,5', '03d953298c8e56b46385c6761cd4b2e377889a75c97eaea475421c73', '93db589e8bda73049164e7dff08d781067ba72273c063f8f68fafd1e'],
    [
      'haval256,5',
      'b89c551cdfe2e06dbd4cea2be1bc7d557416c58ebb4d07cbc94e49f710c55be4',
      'f810ac1c865bd11eeafee2338df83fa2393a537543007674ec4728a4c8e5401e',
    ],
  ];
  for (const [algo, digest, mac] of table) {
    it(`${algo}`, () => {
      assert.equal(call('hash', algo, 'The quick brown fox jumps over the lazy dog'), digest);
      assert.equal(call('hash_hmac', algo, 'message', 'secret key'), mac);
    });
  }
});
