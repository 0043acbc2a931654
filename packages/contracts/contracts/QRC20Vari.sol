// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Pausable} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Pausable.sol";
import {QRC20Flex} from "./QRC20Flex.sol";

/// @title QRC20 vari tier
/// @notice The flex tier plus an owner who can pause and resume all transfers (minting and
/// burning included), appoint the minter, and hand over or renounce ownership.
contract QRC20Vari is QRC20Flex, ERC20Pausable, Ownable {
    constructor(
        string memory name_,
        string memory symbol_,
        uint8 decimals_,
        uint256 initialSupply,
        address supplyHolder,
        address minter_,
        uint256 maxSupply_,
        bool remintable_,
        address owner_
    )
        QRC20Flex(name_, symbol_, decimals_, initialSupply, supplyHolder, minter_, maxSupply_, remintable_)
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

    function decimals() public view override(ERC20, QRC20Flex) returns (uint8) {
        return super.decimals();
    }

    function _update(address from, address to, uint256 value) internal override(ERC20, ERC20Pausable) {
        super._update(from, to, value);
    }
}
