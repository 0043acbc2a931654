// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Consecutive} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Consecutive.sol";

/// @title QRC721 base tier
/// @notice A non-fungible token with a fixed supply: token ids 0 … initialSupply-1 go to one
/// holder at deployment (minted as consecutive batches, ERC-2309), after which tokens can only be
/// transferred. A token's URI is the base URI followed by its id; the base URI must start with
/// "http" and end with "/".
contract QRC721Base is ERC721Consecutive {
    string private _baseTokenURI;
    uint256 private _mintedCount;
    uint256 private _burnedCount;

    error QRC721InvalidBaseURI(string baseURI);

    constructor(
        string memory name_,
        string memory symbol_,
        string memory baseURI_,
        uint256 initialSupply,
        address supplyHolder
    ) ERC721(name_, symbol_) {
        _setBaseURI(baseURI_);
        uint256 remaining = initialSupply;
        uint96 batch = _maxBatchSize();
        while (remaining > 0) {
            uint96 size = remaining < batch ? uint96(remaining) : batch;
            _mintConsecutive(supplyHolder, size);
            remaining -= size;
        }
        // Batch mints do not pass through _update, so they are counted here.
        _mintedCount = initialSupply;
    }

    /// @dev One ERC-2309 batch covers the whole initial supply the platform allows (up to
    /// 1 000 000 000), so deployment gas does not grow with the supply.
    function _maxBatchSize() internal view virtual override returns (uint96) {
        return 1_000_000_000;
    }

    /// @notice Tokens in existence (minted and not burnt).
    function totalSupply() public view returns (uint256) {
        return _mintedCount - _burnedCount;
    }

    function baseURI() public view returns (string memory) {
        return _baseTokenURI;
    }

    function _baseURI() internal view virtual override returns (string memory) {
        return _baseTokenURI;
    }

    function _setBaseURI(string memory newBaseURI) internal {
        if (!_isValidBaseURI(bytes(newBaseURI))) revert QRC721InvalidBaseURI(newBaseURI);
        _baseTokenURI = newBaseURI;
    }

    /// @dev Starts with "http" (any letter case) and ends with "/".
    function _isValidBaseURI(bytes memory uri) private pure returns (bool) {
        if (uri.length < 5 || uri[uri.length - 1] != "/") return false;
        bytes memory scheme = "http";
        for (uint256 i = 0; i < 4; i++) {
            if ((uri[i] | bytes1(0x20)) != scheme[i]) return false;
        }
        return true;
    }

    function _mintedTotal() internal view returns (uint256) {
        return _mintedCount;
    }

    function _update(address to, uint256 tokenId, address auth) internal virtual override returns (address from) {
        from = super._update(to, tokenId, auth);
        if (from == address(0)) _mintedCount += 1;
        if (to == address(0)) _burnedCount += 1;
    }
}
