// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Burnable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Burnable.sol";
import {ERC721Consecutive} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Consecutive.sol";
import {QRC721Base} from "./QRC721Base.sol";

/// @title QRC721 flex tier
/// @notice The base tier plus minting by a minter up to a maximum supply, and burning by a
/// token's owner or an approved address. Minted ids continue after the initial ones.
/// @dev With `remintable`, burnt tokens free room under the maximum supply (the limit applies to
/// the tokens in existence); without it the limit applies to all tokens ever minted.
/// A maximum supply of 0 means no limit.
contract QRC721Flex is QRC721Base, ERC721Burnable {
    uint256 private immutable _maxSupply;
    bool private immutable _remintable;
    address private _minter;
    uint256 private _nextTokenId;

    event MinterChanged(address indexed previousMinter, address indexed newMinter);

    error QRC721UnauthorizedMinter(address account);
    error QRC721InvalidMinter(address minter);
    error QRC721MaxSupplyExceeded(uint256 requested, uint256 available);

    modifier onlyMinter() {
        if (msg.sender != _minter) revert QRC721UnauthorizedMinter(msg.sender);
        _;
    }

    constructor(
        string memory name_,
        string memory symbol_,
        string memory baseURI_,
        uint256 initialSupply,
        address supplyHolder,
        address minter_,
        uint256 maxSupply_,
        bool remintable_
    ) QRC721Base(name_, symbol_, baseURI_, initialSupply, supplyHolder) {
        if (maxSupply_ != 0 && initialSupply > maxSupply_) revert QRC721MaxSupplyExceeded(initialSupply, maxSupply_);
        _maxSupply = maxSupply_;
        _remintable = remintable_;
        _nextTokenId = initialSupply;
        _setMinter(minter_);
    }

    function minter() public view returns (address) {
        return _minter;
    }

    function maxSupply() public view returns (uint256) {
        return _maxSupply;
    }

    function remintable() public view returns (bool) {
        return _remintable;
    }

    /// @notice All tokens minted so far, the initial ones included (burnt ones too).
    function totalMinted() public view returns (uint256) {
        return _mintedTotal();
    }

    /// @notice How many more tokens the minter may mint now.
    function mintableSupply() public view returns (uint256) {
        if (_maxSupply == 0) return type(uint256).max - _mintedTotal();
        uint256 counted = _remintable ? totalSupply() : _mintedTotal();
        return counted >= _maxSupply ? 0 : _maxSupply - counted;
    }

    /// @notice Mints the next token id to `to` and returns it.
    function mint(address to) public virtual onlyMinter returns (uint256 tokenId) {
        uint256 available = mintableSupply();
        if (available == 0) revert QRC721MaxSupplyExceeded(1, 0);
        tokenId = _nextTokenId++;
        _safeMint(to, tokenId);
    }

    /// @notice The minter hands the role to another address.
    function transferMinter(address newMinter) public virtual onlyMinter {
        _setMinter(newMinter);
    }

    function _setMinter(address newMinter) internal {
        if (newMinter == address(0)) revert QRC721InvalidMinter(newMinter);
        emit MinterChanged(_minter, newMinter);
        _minter = newMinter;
    }

    function _update(
        address to,
        uint256 tokenId,
        address auth
    ) internal virtual override(ERC721, QRC721Base) returns (address) {
        return super._update(to, tokenId, auth);
    }

    function _ownerOf(uint256 tokenId) internal view virtual override(ERC721, ERC721Consecutive) returns (address) {
        return super._ownerOf(tokenId);
    }

    function _baseURI() internal view virtual override(ERC721, QRC721Base) returns (string memory) {
        return super._baseURI();
    }
}
