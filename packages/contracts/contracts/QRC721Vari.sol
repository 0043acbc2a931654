// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721Pausable} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721Pausable.sol";
import {QRC721Flex} from "./QRC721Flex.sol";

/// @title QRC721 vari tier
/// @notice The flex tier plus an owner who can pause and resume all transfers (minting and
/// burning included), appoint the minter, change the base URI (same rule), and hand over or
/// renounce ownership.
contract QRC721Vari is QRC721Flex, ERC721Pausable, Ownable {
    event BaseURIChanged(string baseURI);

    constructor(
        string memory name_,
        string memory symbol_,
        string memory baseURI_,
        uint256 initialSupply,
        address supplyHolder,
        address minter_,
        uint256 maxSupply_,
        bool remintable_,
        address owner_
    )
        QRC721Flex(name_, symbol_, baseURI_, initialSupply, supplyHolder, minter_, maxSupply_, remintable_)
        Ownable(owner_)
    {}

    function pause() public onlyOwner {
        _pause();
    }

    function unpause() public onlyOwner {
        _unpause();
    }

    function setMinter(address newMinter) public onlyOwner {
        _setMinter(newMinter);
    }

    function setBaseURI(string memory newBaseURI) public onlyOwner {
        _setBaseURI(newBaseURI);
        emit BaseURIChanged(newBaseURI);
    }

    function _update(
        address to,
        uint256 tokenId,
        address auth
    ) internal override(QRC721Flex, ERC721Pausable) returns (address) {
        return super._update(to, tokenId, auth);
    }

    function _ownerOf(uint256 tokenId) internal view override(ERC721, QRC721Flex) returns (address) {
        return super._ownerOf(tokenId);
    }

    function _baseURI() internal view override(ERC721, QRC721Flex) returns (string memory) {
        return super._baseURI();
    }
}
